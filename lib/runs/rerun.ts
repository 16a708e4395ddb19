import "server-only";
import { ENDED_RUN_STATUSES, type RerunOf, type RunTrigger, type WorkflowDocument } from "@/contract";
import { rerunPlan, type BlockCheckpoint } from "@/executor";
import type { Repositories } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import type { ReusedAttemptResults } from "./durable/run-execution";
import { secretsBetween } from "./rerun-secrets";
import type { LiveRun, StartRun } from "./run-service-types";

/** The span statuses of a block that ran in the source run, the blocks one may run from. */
const RAN: ReadonlySet<string> = new Set(["succeeded", "failed"]);

/**
 * Run from a block: a new run of the current draft with the finished run's input, in which every
 * block that is neither the chosen one nor after it takes its result in that run instead of
 * running. The new run is queued and durable like any other; `rerunOf` links it to the source.
 */
export async function startRerun(
  runs: { start: StartRun },
  repositories: Pick<Repositories, "runs" | "workflows">,
  workspaceId: string,
  request: RerunOf & { trigger: RunTrigger },
): Promise<{ live: LiveRun; rerunOf: RerunOf }> {
  const { runId, blockId } = request;
  // Another workspace's run is not found (404).
  const source = await repositories.runs.getWithSpans(workspaceId, runId);
  if (!ENDED_RUN_STATUSES.includes(source.status)) {
    throw new RequestError(
      "invalid_request",
      `Run "${runId}" has not finished (it is ${source.status}): run it from a block once it has ended.`,
    );
  }
  // A child run (of a workflow tool or Workflow block) is not durable and keeps no results to reuse: every block would run again.
  if (await repositories.runs.parentRunOf(workspaceId, runId)) {
    throw new RequestError(
      "invalid_request",
      `Run "${runId}" was started by another run (a workflow tool or Workflow block) and keeps no results to reuse: run the parent run from a block instead.`,
    );
  }
  const draft = await repositories.workflows.get(workspaceId, source.workflowId);
  if (!draft.blocks.some((block) => block.id === blockId)) {
    throw new RequestError(
      "invalid_request",
      `Block "${blockId}" is not in the workflow's current draft: choose one of its blocks to run from.`,
      [{ path: "blockId", message: "not a block of the current draft" }],
    );
  }
  // A block skipped (or never reached) there would be skipped again by the reused routing before it: nothing useful would run.
  if (!source.spans.some((span) => span.kind === "block" && span.blockId === blockId && RAN.has(span.status))) {
    throw new RequestError(
      "invalid_request",
      `Block "${blockId}" did not run in run "${runId}": run from a block that ran, or from the router before it.`,
      [{ path: "blockId", message: "did not run in the source run" }],
    );
  }
  const rerunOf: RerunOf = { runId, blockId };
  // A test run's re-run is a test run too: running from a block must not start sending what the source run simulated.
  const live = await runs.start(workspaceId, source.workflowId, source.input, {
    trigger: request.trigger,
    rerunOf,
    ...(source.test ? { test: true } : {}),
  });
  return { live, rerunOf };
}

/**
 * The source run's results the new run reuses, planned on the document it executes (the draft as
 * it was when it started). Read again by every attempt at the new run: a resumed one restores its
 * own checkpoints first, so a reused block it already showed is not shown twice.
 */
export async function loadReused(
  checkpoints: Pick<Repositories["checkpoints"], "loadCompleted">,
  rerunOf: RerunOf,
  document: WorkflowDocument,
): Promise<ReusedAttemptResults> {
  const plan = rerunPlan(document.blocks, document.edges, rerunOf.blockId);
  const reusable = new Map<string, Extract<BlockCheckpoint, { status: "completed" }>>();
  const secrets: Array<[string, string]> = [];
  if (plan) {
    const stored = await checkpoints.loadCompleted(rerunOf.runId).catch((error: unknown) => {
      throw new Error(
        `The results of run ${rerunOf.runId} that this run reuses could not be read (${error instanceof Error ? error.message : String(error)}); run the workflow from its start instead.`,
      );
    });
    for (const [key, { checkpoint, masked }] of stored) {
      if (!plan.reuses(key)) continue;
      reusable.set(key, checkpoint);
      secrets.push(...secretsBetween(checkpoint, masked));
    }
  }
  return {
    results: {
      runId: rerunOf.runId,
      restore: (key) => {
        const found = reusable.get(key);
        return found && structuredClone(found);
      },
    },
    secrets,
  };
}
