import "server-only";
import type { RunEvent } from "@/contract";
import { answersFromEvents, type RunAnswers } from "@/executor";
import type { ToolApprovalDecision } from "@/tools/types";
import { decisionsFromEvents } from "./approvals";
import { pausedMsOf } from "./durable/paused-time";
import type { ExecutionRepositories, ResumedAttempt } from "./durable/run-execution";
import { waitsFromEvents } from "./run-waits";

/** What an attempt that goes on with a run needs from the earlier ones: their checkpoints, and what people decided and answered. */
export interface ResumedAttemptState {
  resumed: ResumedAttempt;
  decisions: Map<string, ToolApprovalDecision>;
  answers: RunAnswers;
}

/**
 * The blocks a dead process was executing: their spans end `worker_lost`, and the stream says so
 * with `block.failed` (not handled) before `run.resumed`, so a client following it closes them
 * before the blocks run again.
 */
async function closeLostBlocks(
  repositories: Pick<ExecutionRepositories, "spans" | "runEvents">,
  runId: string,
): Promise<void> {
  const { spans, runEvents } = repositories;
  const error = {
    code: "worker_lost",
    message: "The process executing this block stopped; the block runs again.",
  } as const;
  const lost = (await spans.listByRun(runId)).filter((span) => span.kind === "block" && span.status === "running");
  await spans.closeRunning(runId, error);
  if (lost.length === 0) return;
  const lastSeq = await runEvents.lastSeq(runId);
  await runEvents.append(
    runId,
    lost.map((span, index) => ({
      seq: lastSeq + 1 + index,
      event: {
        type: "block.failed",
        runId,
        blockId: span.blockId,
        spanId: span.id,
        error,
        handled: false,
      } satisfies RunEvent,
    })),
  );
}

/**
 * Reads what a run's earlier attempts left, for one that goes on: a parked run (it waited for a
 * person) goes on from its checkpoints with the decisions and answers in its stream; one whose
 * process died first closes the blocks that process left running.
 */
export async function loadResumedAttempt(
  repositories: Pick<ExecutionRepositories, "spans" | "runEvents" | "checkpoints">,
  runId: string,
  parked: boolean,
): Promise<ResumedAttemptState> {
  if (!parked) await closeLostBlocks(repositories, runId);
  const [stored, events] = await Promise.all([
    repositories.checkpoints.load(runId),
    repositories.runEvents.listAfter(runId, 0),
  ]);
  const stream = events.map((item) => item.event);
  return {
    decisions: decisionsFromEvents(stream),
    answers: answersFromEvents(stream),
    resumed: {
      checkpoints: stored.checkpoints,
      memos: stored.memos,
      lastSeq: events.at(-1)?.seq ?? 0,
      reason: parked ? waitsFromEvents(stream).resumeReason : "recovered",
      pausedMs: pausedMsOf(stream),
    },
  };
}
