import "server-only";
import type { RunEvent, RunRecord, RunStatus } from "@/contract";
import type { LostRunEnd, RunDistribution, RunServiceDependencies } from "./run-service-types";

/** What ending a run from its stored row needs from the run service. */
export interface LostRunsHost {
  repositories: RunServiceDependencies["repositories"];
  distribution(): RunDistribution | undefined;
  /** Wakes this process's waiters of the run. */
  wake(runId: string): void;
}

const CANCELLED = {
  status: "cancelled",
  error: { code: "cancelled", message: "The run was cancelled" },
} as const satisfies LostRunEnd;

/**
 * Ends a run no process will finish (cancelled while queued, its process dead and nothing to
 * resume): its row, its spans still marked running, and its final event, like any ended run.
 * Answers false when the run was no longer in one of `from` (someone else moved it first).
 */
export async function endLostRun(
  host: LostRunsHost,
  run: RunRecord,
  end: LostRunEnd,
  from: readonly RunStatus[],
): Promise<boolean> {
  const { runs, spans, runEvents } = host.repositories;
  const endedAt = new Date();
  const durationMs = Math.max(0, endedAt.getTime() - new Date(run.startedAt).getTime());
  const updated = await runs.update(
    run.id,
    { status: end.status, error: end.error, endedAt, durationMs },
    { onlyIfStatus: from },
  );
  if (!updated) return false;
  const cancelled = end.status === "cancelled";
  const why = {
    code: end.error.code,
    message: cancelled ? "The run was cancelled while this was running" : end.error.message,
  };
  await spans.closeRunning(run.id, why, endedAt, cancelled ? "cancelled" : "failed");
  const event: RunEvent =
    end.status === "cancelled"
      ? { type: "run.cancelled", runId: run.id }
      : { type: "run.failed", runId: run.id, error: end.error };
  await runEvents.append(run.id, [{ seq: (await runEvents.lastSeq(run.id)) + 1, event }]);
  host.distribution()?.signals.ended(run.id);
  host.wake(run.id);
  return true;
}

/**
 * Cancels a run this process does not execute, from its stored row: a queued one is taken off the
 * queue and ends here, one another live process executes is told through the run bus, and one
 * whose process died ends here. Answers false when the run moved meanwhile (look again).
 */
export async function cancelStoredRun(host: LostRunsHost, workspaceId: string, runId: string): Promise<boolean> {
  const { runs, workers } = host.repositories;
  const run = await runs.get(workspaceId, runId);
  const distribution = host.distribution();
  if (run.status === "queued") {
    await distribution?.queue.dequeue(runId);
    return endLostRun(host, run, CANCELLED, ["queued"]);
  }
  if (run.status !== "running" && run.status !== "paused") return true;
  if (distribution && run.worker && (await workers.isAlive(run.worker, distribution.leaseMs))) {
    await distribution.bus.publish({ kind: "cancel", runId });
    return true;
  }
  await distribution?.queue.dequeue(runId);
  await endLostRun(host, run, CANCELLED, ["running", "paused"]);
  return true;
}
