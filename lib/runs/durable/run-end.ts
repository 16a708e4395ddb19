import "server-only";
import type { RunRecord } from "@/contract";
import type { ExecutionResult, SecretRedactor } from "@/executor";
import { retryWhileUnreachable, runEndRow, type RunEnd } from "@/lib/db";
import type { RunRecorder } from "../run-recorder";
import type { SignalBatcher } from "./run-bus";
import type { RunOverheadMeter } from "./run-overhead";
import type { ExecutionRepositories } from "./execution-repositories";

const END_STATUS: Record<ExecutionResult["status"], RunEnd["status"] | undefined> = {
  succeeded: "succeeded",
  failed: "failed",
  cancelled: "cancelled",
  paused: undefined,
};

export interface RunEndContext {
  repositories: ExecutionRepositories;
  signals?: SignalBatcher;
  recorder: RunRecorder;
  redactor: SecretRedactor;
  /** The run as this attempt holds it. */
  run: RunRecord;
  workspaceId: string;
}

/**
 * Stores the end of a run that did not pause: its row's end with its last spans and events and its
 * final event, in one group-committed write (run-recorder.ts `finish`), then answers the ended run
 * as that write left it, without reading it back. When the write is refused, the end is stored the
 * way it was before (the row, then the final event); when the run had already ended elsewhere (a
 * cancel taken by another process), the stored run is read.
 */
export async function storeRunEnd(
  context: RunEndContext,
  result: ExecutionResult,
  startedAt: number,
  meter: RunOverheadMeter,
): Promise<RunRecord> {
  const { repositories, signals, recorder, redactor, run, workspaceId } = context;
  const status = END_STATUS[result.status];
  if (!status) throw new Error(`run ${run.id}: a paused attempt has no end to store`);
  const endedAt = new Date(startedAt + result.durationMs);
  // The engine masks both already; the stored row is masked here once more, whatever made it.
  const end: RunEnd = {
    status,
    output: redactor.redact(result.output ?? null),
    error: redactor.redact(result.error) ?? null,
    endedAt,
    durationMs: Math.round(result.durationMs),
    usage: result.usage,
    overhead: meter.figures(Math.max(endedAt.getTime(), Date.now())),
  };
  const { row, record } = runEndRow(run, end);
  let stored: RunRecord | null = null;
  try {
    try {
      if (await recorder.finish(row)) stored = record;
    } catch {
      // Refused for good (recorder.finish logged why): the row alone, retried through an outage (it changes the row only
      // while the run is live, so twice is once), else the run would stay `running`.
      const { status: endStatus, output, error, durationMs, usage, overhead } = end;
      stored = await retryWhileUnreachable(() =>
        repositories.runs.update(
          run.id,
          { status: endStatus, output, error, endedAt, durationMs, usage, ...(overhead ? { overhead } : {}) },
          { onlyIfStatus: ["running", "paused"] },
        ),
      );
    }
  } finally {
    // Streams end even when storage failed; they must never hang.
    await recorder.publishEnd();
    signals?.ended(run.id);
  }
  return stored ?? (await retryWhileUnreachable(() => repositories.runs.get(workspaceId, run.id)));
}
