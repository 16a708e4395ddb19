import "server-only";
import type { z } from "zod";
import {
  RECENT_FIRES_SHOWN,
  type createScheduleRequestSchema,
  type ScheduleFireView,
  type ScheduleView,
} from "@/contract";
import {
  afterTimeAndId,
  keysetResult,
  NotFoundError,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type PrismaClient,
  type TimeAndId,
} from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/** A schedule as stored: everything the API shows but the fire times to come, which depend on the clock. */
export type StoredSchedule = Omit<ScheduleView, "nextRuns">;

/** A schedule to create: the create request as parsed, its time zone and input defaulted. */
export type NewSchedule = z.output<typeof createScheduleRequestSchema>;

interface ScheduleRow {
  id: string;
  workflowId: string;
  cron: string;
  timezone: string;
  input: unknown;
  suiteId: string | null;
  paused: boolean;
  createdAt: Date;
  lastFireAt: Date | null;
  fires: {
    fireAt: Date;
    claimedAt: Date;
    runId: string | null;
    evaluationId: string | null;
    missed: boolean;
    error: string | null;
  }[];
}

const withRecentFires = { fires: { orderBy: { fireAt: "desc" }, take: RECENT_FIRES_SHOWN } } as const;

/**
 * Schedules, always of one workspace: another workspace's schedule (or workflow) is not found.
 * The scheduler's own reads and claims, which span workspaces, are in schedule-claims.ts.
 */
export class ScheduleRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** @throws NotFoundError when the workflow is not the workspace's */
  async create(workspaceId: string, workflowId: string, schedule: NewSchedule): Promise<StoredSchedule> {
    await this.requireWorkflow(workspaceId, workflowId);
    if (
      schedule.suiteId !== undefined &&
      (await this.prisma.evaluationSuite.count({ where: { id: schedule.suiteId, workspaceId, workflowId } })) === 0
    )
      throw new NotFoundError("Suite", schedule.suiteId);
    const row = await this.prisma.schedule.create({
      data: {
        workspaceId,
        workflowId,
        cron: schedule.cron,
        timezone: schedule.timezone,
        input: schedule.input as Prisma.InputJsonObject,
        suiteId: schedule.suiteId ?? null,
      },
      include: withRecentFires,
    });
    return (await this.withRunStatuses(workspaceId, [row]))[0]!;
  }

  /** @throws NotFoundError */
  async get(workspaceId: string, id: string): Promise<StoredSchedule> {
    const row = await this.prisma.schedule.findFirst({ where: { id, workspaceId }, include: withRecentFires });
    if (!row) throw new NotFoundError("Schedule", id);
    return (await this.withRunStatuses(workspaceId, [row]))[0]!;
  }

  /** A page of the workflow's schedules, newest first. @throws NotFoundError for an unknown workflow */
  async list(
    workspaceId: string,
    workflowId: string,
    page: KeysetPage<TimeAndId>,
  ): Promise<KeysetResult<StoredSchedule, TimeAndId>> {
    await this.requireWorkflow(workspaceId, workflowId);
    const rows = await this.prisma.schedule.findMany({
      where: { workspaceId, workflowId, ...afterTimeAndId("createdAt", "id", "desc", page.after) },
      include: withRecentFires,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: page.limit + 1,
    });
    const items = await this.withRunStatuses(workspaceId, rows);
    return keysetResult(
      items,
      page.limit,
      (item) => item,
      (item) => timeAndIdOf(item.createdAt, item.id),
    );
  }

  /**
   * Pauses or resumes. Resuming marks the moment, so that the fire times passed while paused are
   * skipped rather than run late; resuming a schedule that is not paused changes nothing.
   * @throws NotFoundError
   */
  async setPaused(workspaceId: string, id: string, paused: boolean): Promise<StoredSchedule> {
    await this.prisma.schedule.updateMany({
      where: { id, workspaceId, paused: !paused },
      data: paused ? { paused } : { paused, resumedAt: new Date() },
    });
    return this.get(workspaceId, id);
  }

  /** Deletes the schedule and its fires (its runs stay). @throws NotFoundError */
  async remove(workspaceId: string, id: string): Promise<void> {
    const { count } = await this.prisma.schedule.deleteMany({ where: { id, workspaceId } });
    if (count === 0) throw new NotFoundError("Schedule", id);
  }

  private async requireWorkflow(workspaceId: string, workflowId: string): Promise<void> {
    if ((await this.prisma.workflow.count({ where: { id: workflowId, workspaceId } })) === 0)
      throw new NotFoundError("Workflow", workflowId);
  }

  /** The rows as the API shows them, each fire with its run's status as it is now. */
  private async withRunStatuses(workspaceId: string, rows: ScheduleRow[]): Promise<StoredSchedule[]> {
    const runIds = rows.flatMap((row) => row.fires.flatMap((fire) => (fire.runId ? [fire.runId] : [])));
    const runs = runIds.length
      ? await this.prisma.run.findMany({
          where: { id: { in: runIds }, workspaceId },
          select: { id: true, status: true },
        })
      : [];
    const statuses = new Map(runs.map((run) => [run.id, run.status]));
    return rows.map((row) => ({
      id: row.id,
      workflowId: row.workflowId,
      cron: row.cron,
      timezone: row.timezone,
      input: (row.input ?? {}) as Record<string, unknown>,
      suiteId: row.suiteId,
      paused: row.paused,
      createdAt: row.createdAt.toISOString(),
      lastFireAt: row.lastFireAt?.toISOString() ?? null,
      fires: row.fires.map((fire): ScheduleFireView => ({
        fireAt: fire.fireAt.toISOString(),
        claimedAt: fire.claimedAt.toISOString(),
        runId: fire.runId,
        evaluationId: fire.evaluationId,
        runStatus: fire.runId ? (statuses.get(fire.runId) ?? null) : null,
        missed: fire.missed,
        error: fire.error,
      })),
    }));
  }
}
