import type {
  AskAnswer,
  Cost,
  PendingAsk,
  RunBudget,
  RunEvent,
  RunResumeReason,
  RunStatus,
  SimulationSource,
  TokenCounts,
} from "@/contract";

/**
 * What the editor shows of one run: per-block state for the nodes, totals for the toolbar, the
 * console's lines and the approvals and asks waiting for a person. Only run-reducer.ts builds it.
 */

/** `cancelled`: the block was running when the run was cancelled (cut short, not broken). */
export type BlockRunStatus = "pending" | "running" | "succeeded" | "failed" | "skipped" | "cancelled";

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
  /** Run from a block: the earlier run whose result the block reused instead of running. */
  reusedFrom?: string;
  /** Test runs: the block's own call was simulated (a sample, no sample, or a recorded answer). */
  simulated?: SimulationSource;
}

/** A run's status as the editor shows it: the API's, or `idle` before any run. */
export type RunViewStatus = RunStatus | "idle";

/**
 * What a console line is: an event; `block.delta`, one line of the text a block streams; `block.stdout`,
 * one line a Function block's code printed (its output's `stdout`); `block.cancelled`, a block the
 * run's cancellation cut short (the run.cancelled event names no block, the console does).
 */
export type ConsoleEntryType = RunEvent["type"] | "block.stdout" | "block.cancelled";

/** One line of the console. Streamed text is split at its line breaks: one entry per line of output. */
export interface ConsoleEntry {
  /** The event it came from; the lines of one event share it, so the console keys by `seq` and `line`. */
  seq: number;
  /** Which line of the event's text (0 for the first, and for events). */
  line?: number;
  type: ConsoleEntryType;
  blockId?: string;
  spanId?: string;
  text: string;
  /** A streamed line its block has not ended yet (no line break so far): the next delta goes on it. */
  partial?: boolean;
}

export interface ApprovalEntry {
  toolCallId: string;
  toolName: string;
  blockId: string;
  arguments: unknown;
  requestedAt: string;
  decision?: { approved: boolean; reason?: string };
}

/** An ask of the run: waiting while it has no answer. */
export interface AskEntry extends PendingAsk {
  answer?: AskAnswer;
}

export interface RunView {
  runId: string | null;
  status: RunViewStatus;
  /** Per block id. A block's object is replaced only when an event changes it, so nodes re-render alone. */
  blocks: Record<string, BlockRunState>;
  workflowId?: string;
  startedAt?: string;
  durationMs?: number;
  tokens?: TokenCounts;
  cost?: Cost | null;
  unpriced?: boolean;
  estimated?: boolean;
  output?: unknown;
  error?: { code: string; message: string };
  /** The run's own cap, when it has one (from `run.started`): the toolbar shows spending against it. */
  budget?: RunBudget;
  /** Why the run went on after a stop, when it did (`recovered`: its process died and another resumed it). */
  resumed?: RunResumeReason;
  /** How many times the run was resumed after its process stopped (`run.resumed` with reason `recovered`). */
  recoveries?: number;
  /** The last event applied: the stream resumes after it. */
  lastSeq: number;
  /** True once a run.completed, run.failed or run.cancelled has been applied. */
  ended: boolean;
  blockNames: Record<string, string>;
  /** When the editor began following the run (ms since the epoch, the browser's clock): a queued run's wait counts from it. */
  followedAt?: number;
  log: ConsoleEntry[];
  approvals: ApprovalEntry[];
  /** Asks by span id, in the order they were asked. */
  asks: AskEntry[];
}

export const IDLE_RUN: RunView = {
  runId: null,
  status: "idle",
  blocks: {},
  lastSeq: 0,
  ended: false,
  blockNames: {},
  log: [],
  approvals: [],
  asks: [],
};

/**
 * A run about to be followed: every block of the workflow starts queued. `blockNames` (by id) are the
 * names the console uses for blocks no event names (a skipped block never starts, so none does).
 * `followedAt` (ms since the epoch) is when the editor began following it: a queued run's wait counts from it.
 */
export function initialRunView(
  runId: string,
  blockIds: readonly string[],
  blockNames: Record<string, string> = {},
  followedAt?: number,
): RunView {
  const blocks: Record<string, BlockRunState> = {};
  for (const id of blockIds) blocks[id] = { status: "pending", text: "" };
  return {
    ...IDLE_RUN,
    runId,
    status: "queued",
    blocks,
    blockNames: { ...blockNames },
    ...(followedAt === undefined ? {} : { followedAt }),
  };
}

/** Whether the run may still change: the toolbar offers Cancel and the stream stays open. */
export function isLive(view: RunView): boolean {
  return !view.ended && (view.status === "queued" || view.status === "running" || view.status === "paused");
}
