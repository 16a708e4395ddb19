import type { ErrorInfo, Usage } from "@/contract";
import type { StoredResult } from "./output-store";

// The shapes a durable run's checkpoints are kept in, apart from the code that takes and restores
// them, so the run context can name its store without importing that code.

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

/**
 * Run from a block: the finished results of the run this one was started from, for the blocks
 * before the one it runs from. Such a block does not run; its earlier result stands in for it.
 */
export interface ReusedResults {
  /** The run the results come from. */
  runId: string;
  /** The block's completed result in that run (by checkpoint key), if it is to be reused. */
  restore(key: string): Extract<BlockCheckpoint, { status: "completed" }> | undefined;
}

/**
 * One block in one iteration: `agent` at the top level, `agent@2.0` in iteration 0 of iteration 2.
 * `attempt`: the pass of a retry cycle the block runs in; passes after the first add `~<attempt>`
 * (`linter~2`, `linter@1~3`), so each pass has checkpoints of its own.
 */
export function checkpointKey(blockId: string, iteration: ReadonlyArray<number>, attempt = 0): string {
  const key = iteration.length === 0 ? blockId : `${blockId}@${iteration.join(".")}`;
  return attempt > 1 ? `${key}~${attempt}` : key;
}
