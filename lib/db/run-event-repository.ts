import "server-only";
import type { RunEvent, SequencedRunEvent } from "@/contract";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { InvalidInputError, NotFoundError } from "./errors";
import { isPrismaError, toJsonValue } from "./json-value";
import type { StoredRunEvent } from "./types";

/** The stored run event stream, for replaying a run after (or while) it happens. */
export class RunEventRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Stores events under the sequence numbers they were streamed with. Writing the same
   * (run, seq) again is ignored, so a retried batch does not fail or duplicate.
   * @throws NotFoundError when the run does not exist
   */
  async append(runId: string, events: readonly SequencedRunEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map(({ seq, event }, index) => {
      if (!Number.isSafeInteger(seq) || seq < 1)
        throw new InvalidInputError(
          `events[${index}].seq must be a whole number of at least 1`,
          `events[${index}].seq`,
        );
      if (event.runId !== runId)
        throw new InvalidInputError(
          `events[${index}] belongs to run "${event.runId}", not "${runId}"`,
          `events[${index}].runId`,
        );
      const { type, ...data } = event;
      return { runId, seq, type, data: toJsonValue(data, `events[${index}]`) };
    });
    try {
      await this.prisma.runEvent.createMany({ data: rows, skipDuplicates: true });
    } catch (error) {
      if (isPrismaError(error, "P2003")) throw new NotFoundError("Run", runId);
      throw error;
    }
  }

  /** Events after `afterSeq` (0: from the start), in order; at most `limit` (default 10,000). */
  async listAfter(runId: string, afterSeq = 0, limit = 10_000): Promise<StoredRunEvent[]> {
    const rows = await this.prisma.runEvent.findMany({
      where: { runId, seq: { gt: afterSeq } },
      orderBy: { seq: "asc" },
      take: limit,
    });
    return rows.map((row) => ({
      seq: row.seq,
      event: { type: row.type, ...(row.data as object) } as RunEvent,
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /**
   * Appends one event to a parked run (paused, held by no process), whose stream nobody else is
   * writing: the run's row is locked meanwhile, so two answers get two numbers. Answers the
   * event's number, or null when the run is not parked (a process holds it, and its own stream
   * must carry the event).
   */
  async appendIfParked(runId: string, event: RunEvent): Promise<number | null> {
    const seq = await this.appendOnceIfParked(runId, event);
    return seq === "taken" ? null : seq;
  }

  /**
   * Like appendIfParked, for an ask's answer: "taken" when the ask (same span id) already has one,
   * checked under the same lock, so of two answers at once exactly one is stored.
   */
  async appendOnceIfParked(runId: string, event: RunEvent): Promise<number | null | "taken"> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<Array<{ status: string; worker: string | null }>>(
        "SELECT status, worker FROM runs WHERE id = $1 FOR UPDATE",
        runId,
      );
      const row = rows[0];
      if (!row || row.status !== "paused" || row.worker !== null) return null;
      if (event.type === "ask.answered") {
        const taken = await tx.$queryRawUnsafe<unknown[]>(
          "SELECT 1 FROM run_events WHERE run_id = $1 AND type = 'ask.answered' AND data->>'spanId' = $2 LIMIT 1",
          runId,
          event.spanId,
        );
        if (taken.length > 0) return "taken";
      }
      const last = await tx.runEvent.aggregate({ where: { runId }, _max: { seq: true } });
      const seq = (last._max.seq ?? 0) + 1;
      const { type, ...data } = event;
      await tx.runEvent.create({ data: { runId, seq, type, data: toJsonValue(data, "event") } });
      return seq;
    });
  }

  /**
   * Parked runs with an ask whose deadline (`timeoutAt`) has passed by `now`, answered or not (the
   * caller reads which still wait): the durable timeout sweep's work list.
   */
  async parkedWithDueAsks(now: Date, limit = 100): Promise<Array<{ id: string; workspaceId: string }>> {
    const rows = await this.prisma.$queryRawUnsafe<Array<{ id: string; workspace_id: string }>>(
      `SELECT DISTINCT r.id, r.workspace_id FROM runs r JOIN run_events e ON e.run_id = r.id
       WHERE r.status = 'paused' AND r.worker IS NULL AND e.type = 'ask.requested'
         AND (e.data->>'timeoutAt') IS NOT NULL AND (e.data->>'timeoutAt')::timestamptz <= $1
       LIMIT $2`,
      now,
      limit,
    );
    return rows.map((row) => ({ id: row.id, workspaceId: row.workspace_id }));
  }

  /** The highest stored sequence number of a run (0 when it has none). */
  async lastSeq(runId: string): Promise<number> {
    const result = await this.prisma.runEvent.aggregate({ where: { runId }, _max: { seq: true } });
    return result._max.seq ?? 0;
  }
}
