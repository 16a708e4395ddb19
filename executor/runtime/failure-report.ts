/** How a block that did not complete is reported (block.failed, block.skipped, its span), and where its failure goes. */
import type { Usage } from "@/contract";
import { routeFailure } from "../edge-routing";
import { errorInfo, failureCarrying, isTrellisError, addUsage } from "@/core";
import { edgeLabel, type GraphNode } from "../graph";
import type { RunContext } from "./run-context";
import type { BlockSpan } from "./spans";

/** What a failed handler spent before failing, when it spent anything. */
function spentOf(error: unknown): Usage | undefined {
  const spent = isTrellisError(error) ? error.spent : undefined;
  if (!spent || !(spent.tokens.total > 0 || (spent.cost?.total ?? 0) > 0 || spent.unpriced)) return undefined;
  return spent;
}

/** Reports a block that a run halt interrupted. */
export function reportInterrupted(run: RunContext, node: GraphNode, span: BlockSpan): void {
  const halt = run.halt;
  // An ask waiting when the run parked keeps its span open: the attempt that gets its answer closes it.
  if (halt?.kind === "parked" && halt.parks.some((park) => park.reason === "ask" && park.spanId === span.id)) return;
  span.close("cancelled");
  const runId = run.settings.runId;
  if (halt?.kind === "terminal")
    run.emit({
      type: "block.skipped",
      runId,
      blockId: node.id,
      reason: `the run ended at response block '${halt.blockName}'`,
    });
  else if (halt?.kind === "parked") return;
  else if (halt?.kind === "timeout")
    run.emit({
      type: "block.failed",
      runId,
      blockId: node.id,
      spanId: span.id,
      error: errorInfo(halt.error),
      handled: false,
    });
}

/**
 * Where a failure goes: the error edges it activates, with the `{ error }` output their conditions read and the blocks
 * after them see; or `unhandled`, the error the scope fails with, when no error edge is active.
 */
export type FailureRoute = { output: Record<string, unknown>; routes: boolean[] } | { unhandled: unknown };

/** Works out a failure's route; decided before the failure is reported, so `handled` says what the run then does. */
export function routeFailed(run: RunContext, node: GraphNode, error: unknown): FailureRoute {
  if (!node.hasErrorEdge) return { unhandled: error };
  const info = errorInfo(error);
  const output = { error: { code: info.code, message: run.redactText(info.message) } };
  let routes: boolean[];
  try {
    routes = routeFailure(output, node.outEdges, edgeLabel);
  } catch (conditionError) {
    // The error edges' own condition broke: nothing can take the failure, and the run says which condition.
    return { unhandled: conditionError };
  }
  // Error edges whose conditions are all false take nothing: the failure must fail the scope, not vanish into skipped blocks.
  return routes.includes(true) ? { output, routes } : { unhandled: error };
}

/** Reports a failure; `handled` when an error edge takes it. Returns its route, for the scope to follow. */
export function reportFailure(
  run: RunContext,
  node: GraphNode,
  span: BlockSpan,
  error: unknown,
  attempts?: number,
): FailureRoute {
  const route = routeFailed(run, node, error);
  const info = errorInfo(error);
  const safe = { code: info.code, message: info.message };
  // What a failed handler spent before failing (a model call that then broke) still counts.
  const spent = spentOf(error);
  if (spent) run.addUsage(spent);
  const fields: Parameters<BlockSpan["close"]>[1] = { error: safe };
  if (attempts && attempts > 1) fields.attempts = attempts;
  if (spent) fields.usage = spent;
  const partialOutput = isTrellisError(error) ? error.partialOutput : undefined;
  if (partialOutput !== undefined) fields.output = partialOutput;
  span.close("failed", fields);
  const failed: Parameters<RunContext["emit"]>[0] = {
    type: "block.failed",
    runId: run.settings.runId,
    blockId: node.id,
    spanId: span.id,
    error: safe,
    handled: !("unhandled" in route),
  };
  if (spent) {
    failed.tokens = spent.tokens;
    failed.cost = spent.cost;
    if (spent.unpriced) failed.unpriced = true;
    if (spent.estimated) failed.estimated = true;
  }
  run.emit(failed);
  return route;
}

/**
 * An output that cannot be routed fails a block that already did its work: what it spent goes on the error (as a failed
 * handler's does), so reportFailure counts it once.
 */
export function withSpent(error: unknown, usage: Usage | undefined): unknown {
  if (!usage || !isTrellisError(error)) return error;
  return failureCarrying(error, { spent: error.spent ? addUsage(error.spent, usage) : usage });
}
