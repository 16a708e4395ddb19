import type { ErrorCode, Usage } from "@/contract";
import { TrellisError, errorInfo, isTrellisError, addUsage, type BlockMemo } from "@/core";
import type { GraphNode } from "../graph";
import type { BlockOutcome, ExecutionPlace } from "./execution-place";
import { takeReused } from "./reused-results";
import { checkpointKey, type BlockCheckpoint, type CheckpointStore } from "./checkpoint-store";

/** The memo of one attempt at a block, over the run's store (keys `<block key>|<kind>#<n>`). */
export function blockMemo(store: CheckpointStore | undefined, blockKey: string): BlockMemo | undefined {
  const { recall, remember } = store ?? {};
  if (!recall || !remember) return undefined;
  const counts = new Map<string, number>();
  return {
    next(kind) {
      const index = counts.get(kind) ?? 0;
      counts.set(kind, index + 1);
      return `${kind}#${index}`;
    },
    recall: (key) => recall.call(store, `${blockKey}|${key}`),
    remember: (key, value) => remember.call(store, `${blockKey}|${key}`, value),
    ...(store?.replaying ? { replaying: true } : {}),
  };
}

/** What a settled block spent: a completed block's usage, a failure's spending, a container's iterations'. */
export function usageOf(outcome: BlockOutcome): Usage | undefined {
  if (outcome.status === "completed") return outcome.usage;
  if (outcome.status === "failed")
    return outcome.usage ?? (isTrellisError(outcome.error) ? outcome.error.spent : undefined);
  return undefined;
}

/** Sums what blocks spent, for a scope's tally; undefined while nothing was. */
export function addSpent(total: Usage | undefined, usage: Usage | undefined): Usage | undefined {
  if (!usage) return total;
  return total ? addUsage(total, usage) : usage;
}

function restoredOutcome(place: ExecutionPlace, checkpoint: BlockCheckpoint): BlockOutcome {
  // The usage goes back on the outcome too, so a container running around this block keeps it in its own checkpoint.
  const usage = checkpoint.usage ? { usage: checkpoint.usage } : {};
  if (checkpoint.usage) place.run.addUsage(checkpoint.usage);
  if (checkpoint.status === "failed")
    return {
      status: "failed",
      error: new TrellisError(checkpoint.error.code as ErrorCode, checkpoint.error.message),
      ...usage,
    };
  if (checkpoint.inner) place.store.restore(checkpoint.inner);
  const variables = checkpoint.variables ? { variables: checkpoint.variables } : {};
  return { status: "completed", output: checkpoint.output, ...usage, ...variables };
}

function checkpointOf(node: GraphNode, outcome: BlockOutcome): BlockCheckpoint | undefined {
  if (outcome.status === "completed") {
    const checkpoint: BlockCheckpoint = { status: "completed", output: outcome.output };
    if (outcome.usage) checkpoint.usage = outcome.usage;
    if (outcome.inner) checkpoint.inner = outcome.inner;
    if (outcome.variables) checkpoint.variables = outcome.variables;
    return checkpoint;
  }
  // An unhandled failure ends the run, so there is nothing to resume past it.
  if (outcome.status === "failed" && (outcome.route ? !("unhandled" in outcome.route) : node.hasErrorEdge)) {
    const spent = usageOf(outcome);
    return { status: "failed", error: errorInfo(outcome.error), ...(spent ? { usage: spent } : {}) };
  }
  return undefined;
}

/**
 * Runs a block unless an earlier attempt at the run finished it, in which case its stored result
 * stands in for it (no events: the stream already has them). A block that finishes now is stored
 * before anything downstream may start; a result that cannot be stored fails the block, because
 * a run that went on would repeat it after a crash.
 */
export async function runCheckpointed(
  place: ExecutionPlace,
  node: GraphNode,
  execute: () => Promise<BlockOutcome>,
): Promise<BlockOutcome> {
  const store = place.run.settings.checkpoints;
  if (!store) return execute();
  const key = checkpointKey(node.id, place.iteration, place.attempt(node));
  const restored = store.restore(key);
  if (restored) return restoredOutcome(place, restored);
  const reused = store.reused?.restore(key);
  if (reused) return takeReused(place, node, key, { runId: store.reused!.runId, result: reused });
  const outcome = await execute();
  const checkpoint = checkpointOf(node, outcome);
  if (!checkpoint) return outcome;
  try {
    await store.save(key, checkpoint);
  } catch (error) {
    const message = place.run.redactText(error instanceof Error ? error.message : String(error));
    return {
      status: "failed",
      error: new TrellisError("internal_error", `The result of block '${node.name}' could not be stored: ${message}`),
    };
  }
  return outcome;
}
