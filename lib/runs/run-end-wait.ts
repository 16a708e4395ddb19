import "server-only";
import type { RunRecord } from "@/contract";
import type { RunWaiters } from "./run-waiters";

/** How often a caller waiting for a run elsewhere re-reads it, in case a signal was lost. */
const WAIT_POLL_MS = 2_000;

export interface RunEndSources {
  waiters: RunWaiters;
  /** The attempt's end, when the run executes in this process now. */
  localDone(runId: string): Promise<RunRecord> | undefined;
  readStored(workspaceId: string, runId: string): Promise<RunRecord>;
}

/**
 * The stored run once it has ended, wherever it executes: the attempt's own result when it
 * executes here (an attempt that only paused is not the end), else the stored row, read when a
 * signal says it may have ended, when it ended recently, or at the fallback poll.
 */
export async function waitForRunEnd(sources: RunEndSources, workspaceId: string, runId: string): Promise<RunRecord> {
  const { waiters } = sources;
  let readStorage = waiters.endedLately(runId);
  for (;;) {
    // Registered before looking, so an end between the look and the wait still wakes it.
    const woken = waiters.next(runId, WAIT_POLL_MS).promise;
    const local = sources.localDone(runId);
    if (local) {
      const stored = await local;
      if (stored.status !== "paused") return stored;
    } else if (readStorage) {
      const run = await sources.readStored(workspaceId, runId);
      if (run.status === "succeeded" || run.status === "failed" || run.status === "cancelled") return run;
    }
    await woken;
    readStorage = true;
  }
}
