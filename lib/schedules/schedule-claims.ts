import "server-only";
import type { PrismaClient } from "@/lib/db";

/** An unpaused schedule as the scheduler reads it. */
export interface ActiveSchedule {
  id: string;
  workspaceId: string;
  workflowId: string;
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  /** A schedule of a suite evaluates the active deployment instead of running it. */
  suiteId: string | null;
  createdAt: Date;
  lastFireAt: Date | null;
  resumedAt: Date | null;
}

/** How many of a schedule's fires are kept (the list shows the newest few; a schedule of every second makes 86,400 a day). */
export const FIRES_KEPT = 100;

/**
 * What the scheduler of every process does in the database, across workspaces: read the unpaused
 * schedules, claim a fire time, and record what came of it. The claim is what makes a fire time
 * run once however many processes see it due (see `claim`).
 */
export class ScheduleClaims {
  constructor(private readonly prisma: PrismaClient) {}

  async active(): Promise<ActiveSchedule[]> {
    const rows = await this.prisma.schedule.findMany({
      where: { paused: false },
      select: {
        id: true,
        workspaceId: true,
        workflowId: true,
        cron: true,
        timezone: true,
        input: true,
        suiteId: true,
        createdAt: true,
        lastFireAt: true,
        resumedAt: true,
      },
    });
    return rows.map((row) => ({ ...row, input: (row.input ?? {}) as Record<string, unknown> }));
  }

  /**
   * Claims one fire time for this process; true when it is this process's to run. One statement:
   * it moves the schedule's `last_fire_at` forward to the fire time (only forward, and only while
   * the schedule is not paused: a pause holds from the moment it is stored) and inserts the fire
   * row, whose primary key (schedule, fire time) no second insert passes. Two processes claiming
   * the same time serialise on the schedule's row: the second finds `last_fire_at` already there
   * and inserts nothing.
   */
  async claim(scheduleId: string, fireAt: Date, options: { missed: boolean; claimedBy: string }): Promise<boolean> {
    const inserted = await this.prisma.$executeRawUnsafe(
      `WITH advanced AS (
         UPDATE schedules SET last_fire_at = $2::timestamptz
         WHERE id = $1 AND paused = false AND (last_fire_at IS NULL OR last_fire_at < $2::timestamptz)
         RETURNING id
       )
       INSERT INTO schedule_fires (schedule_id, fire_at, missed, claimed_by)
       SELECT id, $2::timestamptz, $3, $4 FROM advanced
       ON CONFLICT DO NOTHING`,
      scheduleId,
      fireAt.toISOString(),
      options.missed,
      options.claimedBy,
    );
    return inserted === 1;
  }

  async recordRun(scheduleId: string, fireAt: Date, runId: string): Promise<void> {
    await this.prisma.scheduleFire.updateMany({ where: { scheduleId, fireAt }, data: { runId } });
  }

  async recordEvaluation(scheduleId: string, fireAt: Date, evaluationId: string): Promise<void> {
    await this.prisma.scheduleFire.updateMany({ where: { scheduleId, fireAt }, data: { evaluationId } });
  }

  async recordError(scheduleId: string, fireAt: Date, error: string): Promise<void> {
    await this.prisma.scheduleFire.updateMany({
      where: { scheduleId, fireAt },
      data: { error: error.slice(0, 2_000) },
    });
  }

  /** Deletes every schedule's fires beyond its newest FIRES_KEPT. */
  async prune(): Promise<number> {
    return this.prisma.$executeRawUnsafe(
      `DELETE FROM schedule_fires f
       USING (SELECT schedule_id, fire_at, row_number() OVER (PARTITION BY schedule_id ORDER BY fire_at DESC) AS position FROM schedule_fires) ranked
       WHERE f.schedule_id = ranked.schedule_id AND f.fire_at = ranked.fire_at AND ranked.position > $1`,
      FIRES_KEPT,
    );
  }
}
