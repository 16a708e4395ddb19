import type { Cost, RunStatus, TokenCounts } from "@/contract";

/**
 * The run state the canvas shows on each node. Only its shape and plain setters live here; the
 * run issue feeds it from the run event stream (one hook consumes the events and calls these).
 */
export type BlockRunStatus = "pending" | "running" | "succeeded" | "failed" | "skipped";

export interface BlockRunState {
  status: BlockRunStatus;
  startedAt?: string;
  durationMs?: number;
  /** Streamed model output so far (block.delta text, concatenated). */
  text: string;
  output?: unknown;
  tokens?: TokenCounts;
  /** null with `unpriced` when no price is known: the node says so, never shows $0. */
  cost?: Cost | null;
  unpriced?: boolean;
  estimated?: boolean;
  error?: { code: string; message: string };
  /** An `error` edge took the failure. */
  handled?: boolean;
  /** Times the block ran (loops and parallel branches run a block more than once). */
  runs?: number;
}

/** A run's status as the editor shows it: the API's, or `idle` before any run. */
export type RunViewStatus = RunStatus | "idle";

export interface RunSliceState {
  runId: string | null;
  status: RunViewStatus;
  blocks: Record<string, BlockRunState>;
  durationMs?: number;
  tokens?: TokenCounts;
  cost?: Cost | null;
  error?: { code: string; message: string };
}

export interface RunSliceActions {
  /** Clears the previous run's badges and starts tracking `runId`. */
  runStarted(runId: string): void;
  /** Merges a patch into one block's run state (creating it as `pending` if absent). */
  blockRunUpdated(blockId: string, patch: Partial<BlockRunState>): void;
  /** Appends streamed text to a block. */
  blockTextAppended(blockId: string, text: string): void;
  runFinished(patch: Omit<Partial<RunSliceState>, "blocks" | "runId">): void;
  runCleared(): void;
}

export const EMPTY_RUN: RunSliceState = { runId: null, status: "idle", blocks: {} };

type SetRun = (update: (run: RunSliceState) => RunSliceState) => void;

export function createRunActions(setRun: SetRun): RunSliceActions {
  const patchBlock = (run: RunSliceState, blockId: string, patch: (current: BlockRunState) => BlockRunState): RunSliceState => {
    const current = run.blocks[blockId] ?? { status: "pending", text: "" };
    return { ...run, blocks: { ...run.blocks, [blockId]: patch(current) } };
  };
  return {
    runStarted: (runId) => setRun(() => ({ runId, status: "running", blocks: {} })),
    blockRunUpdated: (blockId, patch) => setRun((run) => patchBlock(run, blockId, (current) => ({ ...current, ...patch }))),
    blockTextAppended: (blockId, text) => setRun((run) => patchBlock(run, blockId, (current) => ({ ...current, text: current.text + text }))),
    runFinished: (patch) => setRun((run) => ({ ...run, ...patch })),
    runCleared: () => setRun(() => EMPTY_RUN),
  };
}
