import type { PendingApproval } from "./approvals";
import type { AskAnswer, PendingAsk } from "./asks";
import type { ErrorInfo } from "./errors";
import type { SimulationSource } from "./test-samples";
import type { AppliedPrice } from "./prices";
import type { Cost, TokenCounts, Usage } from "./usage";
import type { RunBudget } from "./budgets";

/** The run event stream of docs/CONTRACT.md section 6. Names are noun then verb. */

interface UsageFields {
  tokens?: TokenCounts;
  cost?: Cost | null;
  unpriced?: boolean;
  estimated?: boolean;
}

/** Where a reused block's result came from, and what it cost there. */
export interface ReusedResult {
  runId: string;
  tokens?: TokenCounts;
  cost?: Cost | null;
}

export type RunEvent =
  /** `budget` (an extension): the run's own cap, when it has one; spending is the sum of its blocks' `cost`. */
  | { type: "run.started"; runId: string; workflowId: string; startedAt: string; budget?: RunBudget }
  | {
      type: "block.started";
      runId: string;
      blockId: string;
      blockName: string;
      blockType: string;
      spanId: string;
      iteration?: number[];
      /** Extension (retry cycles): the pass of its retry cycle the block runs in, 1 for the first; absent outside a cycle. */
      attempt?: number;
      startedAt: string;
    }
  | { type: "block.delta"; runId: string; blockId: string; spanId: string; text: string }
  | ({
      type: "block.completed";
      runId: string;
      blockId: string;
      spanId: string;
      output: unknown;
      durationMs: number;
      /**
       * Run from a block (an extension): the block did not run, its result is the one of run `runId`,
       * which spent `tokens` and `cost` on it. The event then has no usage of its own: nothing was spent.
       */
      reused?: ReusedResult;
      /** Test runs (an extension): the block's call was simulated (its span says the same). */
      simulated?: SimulationSource;
    } & UsageFields)
  | ({
      type: "block.failed";
      runId: string;
      blockId: string;
      spanId: string;
      error: ErrorInfo;
      handled: boolean;
    } & UsageFields)
  | { type: "block.skipped"; runId: string; blockId: string; reason: string }
  | ({ type: "run.completed"; runId: string; output: unknown; durationMs: number } & Required<
      Pick<UsageFields, "tokens" | "cost">
    > &
      Pick<UsageFields, "unpriced" | "estimated">)
  | { type: "run.failed"; runId: string; error: ErrorInfo }
  | { type: "run.cancelled"; runId: string }
  /**
   * The run stopped to wait for a person (docs/CONTRACT.md section 10): it holds no process while
   * it waits, and `run.resumed` follows once it is answered. `spanId` is the waiting tool call's span.
   */
  | {
      type: "run.paused";
      runId: string;
      blockId: string;
      spanId: string | null;
      reason: RunPauseReason;
      toolCallId?: string;
      /** For an ask: what it asks (one `run.paused` per ask waiting when the run stops). */
      question?: string;
      choices?: PendingAsk["choices"];
      pausedAt: string;
    }
  /**
   * The run went on after a stop: `recovered` when the process executing it died and another
   * (or the same one restarted) resumed it from its finished blocks (docs/CONTRACT.md section 11).
   * `worker` names the process that goes on with it.
   */
  | { type: "run.resumed"; runId: string; reason: RunResumeReason; worker?: string; resumedAt: string }
  /*
   * Contract extension (issue 8, tool approval). A tool whose agent `tools` entry says
   * `requireApproval: true` waits for a person: `tool.approval.requested` when the model calls it
   * (the run's status becomes `paused` while any call waits), `tool.approval.resolved` when
   * POST /api/runs/:id/approvals/:toolCallId decides it (status back to `running`). A denied call
   * returns an error to the model ("denied by a person: <reason>"); the run goes on. `spanId` is
   * the tool call's span (a child of the agent block's span).
   */
  | ({ type: "tool.approval.requested" } & PendingApproval)
  | {
      type: "tool.approval.resolved";
      runId: string;
      blockId: string;
      spanId: string | null;
      toolCallId: string;
      toolName: string;
      approved: boolean;
      reason?: string;
      resolvedAt: string;
    }
  | AskRunEvent;

/*
 * Contract extension (issue 17, ask blocks). `ask.requested` when an ask block starts waiting
 * (other paths of the run go on; the run pauses once nothing but waiting asks is left), and
 * `ask.answered` when it got its answer (from the API, the editor, the chat, or its timeout).
 */
export type AskRunEvent =
  | ({ type: "ask.requested" } & PendingAsk)
  | ({ type: "ask.answered"; runId: string; blockId: string; spanId: string; iteration?: number[] } & AskAnswer);

export type RunResumeReason = "recovered" | "approved" | "answered";
export type RunPauseReason = "approval" | "ask";

export type RunEventType = RunEvent["type"];

/** Every event type, for a stream reader that must name the ones it listens to. */
export const RUN_EVENT_TYPES = [
  "run.started",
  "block.started",
  "block.delta",
  "block.completed",
  "block.failed",
  "block.skipped",
  "run.completed",
  "run.failed",
  "run.cancelled",
  "run.paused",
  "run.resumed",
  "tool.approval.requested",
  "tool.approval.resolved",
  "ask.requested",
  "ask.answered",
] as const satisfies ReadonlyArray<RunEventType>;

// A type added to the union but not to the list above fails here.
type MissingEventType = Exclude<RunEventType, (typeof RUN_EVENT_TYPES)[number]>;
const _everyEventTypeListed: MissingEventType extends never ? true : never = true;
void _everyEventTypeListed;

/** An event with its number in the run's stream (the SSE `id`), counted from 1. */
export interface SequencedRunEvent {
  seq: number;
  event: RunEvent;
}

const TERMINAL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set(["run.completed", "run.failed", "run.cancelled"]);

/** The run ended: nothing follows this event in its stream. */
export function isTerminalEvent(event: RunEvent): boolean {
  return TERMINAL_EVENT_TYPES.has(event.type);
}

export type SpanStatus = "running" | "succeeded" | "failed" | "skipped" | "cancelled";

/** A span of the trace as stored: a block, or a model or tool call inside a block. */
export interface SpanRecord {
  id: string;
  runId: string;
  parentId: string | null;
  kind: "block" | "model" | "tool";
  blockId: string;
  blockName: string;
  blockType: string;
  /** Model id for model spans, tool name for tool spans. */
  name?: string;
  model?: string;
  status: SpanStatus;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  input?: unknown;
  output?: unknown;
  error?: ErrorInfo;
  usage?: Usage;
  /** A priced model call's price per million tokens and where it came from (a workspace override, the operator's file, the catalog). */
  price?: AppliedPrice;
  /** Loop/parallel iteration indexes, outermost first. */
  iteration?: number[];
  /** How many times the block's handler was tried (more than 1 when its retry policy retried it). */
  attempts?: number;
  /** Extension (retry cycles): the pass of its retry cycle the block ran in, 1 for the first; absent outside a cycle. */
  attempt?: number;
  /** The process that executed it (durable runs may move between processes). */
  worker?: string;
  /**
   * Run from a block (an extension): the run whose result this block reused instead of running. A
   * reused block's span has no usage: what it spent was spent by that run.
   */
  reusedFrom?: string;
  /** Test runs (an extension): this call was not made; it was answered from a sample, with "no sample", or from a recorded output. */
  simulated?: SimulationSource;
}
