import type { ErrorCode, ErrorInfo, Usage } from "@/contract";
import { TrellisError, errorInfo, isTrellisError, addUsage, type BlockMemo } from "@/core";
import type { GraphNode } from "../graph";
import type { BlockOutcome, ExecutionPlace } from "./block-execution";
import type { StoredResult } from "./output-store";
import { takeReused, type ReusedResults } from "./reused-results";

/**
 * A finished block's result, stored so that a run resumed after its process died goes on from it
 * instead of running the block (and paying for its model calls) again. Values are unmasked: the
 * store keeps them out of traces and protects them at rest.
 */
export type BlockCheckpoint =
  | {
      status: "completed";
      output: Record<string, unknown>;
      usage?: Usage;
      /** A container's last iteration: the body outputs that blocks after the container read. */
      inner?: Array<[string, StoredResult]>;
      /** A loop's assignments to workflow variables (a Set Variables block's are its output). */
      variables?: Record<string, unknown>;
    }
  /** A failure an `error` edge took: the run went on along that edge. */
  | { status: "failed"; error: ErrorInfo; usage?: Usage };

/** Where a durable run keeps its checkpoints; absent for runs that need none (tests, tools' inner runs). */
export interface CheckpointStore {
  /** The result the block had in an earlier attempt at this run, if it finished then. */
  restore(key: string): BlockCheckpoint | undefined;
  /** Makes a finished block's result durable; blocks downstream start only once it resolves. */
  save(key: string, checkpoint: BlockCheckpoint): Promise<void>;
  /** Values blocks keep between attempts (BlockMemo), under keys of their own. */
  recall?(key: string): unknown;
  remember?(key: string, value: unknown): Promise<void>;
  /** Run from a block: another run's results that blocks take instead of running, when this run has none of its own. */
  reused?: ReusedResults;
  /** A replay: `recall` answers from the source run's recordings too, and nothing unrecorded is called (BlockMemo.replaying). */
  replaying?: boolean;
}

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

/** One block in one iteration: `agent` at the top level, `agent@2.0` in iteration 0 of iteration 2. */
export function checkpointKey(blockId: string, iteration: ReadonlyArray<number>): string {
  return iteration.length === 0 ? blockId : `${blockId}@${iteration.join(".")}`;
}

/** What a settled block spent: a completed block's usage, a failure's spending, a container's iterations'. */
export function usageOf(outcome: BlockOutcome): Usage | undefined {
  if (outcome.status === "completed") return outcome.usage;
  if (outcome.status === "failed") return outcome.usage ?? (isTrellisError(outcome.error) ? outcome.error.spent : undefined);
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
    return { status: "failed", error: new TrellisError(checkpoint.error.code as ErrorCode, checkpoint.error.message), ...usage };
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
export async function runCheckpointed(place: ExecutionPlace, node: GraphNode, execute: () => Promise<BlockOutcome>): Promise<BlockOutcome> {
  const store = place.run.settings.checkpoints;
  if (!store) return execute();
  const key = checkpointKey(node.id, place.iteration);
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
    return { status: "failed", error: new TrellisError("internal_error", `The result of block '${node.name}' could not be stored: ${message}`) };
  }
  return outcome;
}
