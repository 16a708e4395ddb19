import { z } from "zod";
import type { ErrorInfo } from "./errors";
import { withoutReservedKeys } from "./reserved-names";
import { BLOCK_ID_PATTERN } from "./workflow-document";
import { requestBudgetSchema, type RunBudget } from "./budgets";
import type { RunTrigger } from "./deployments";
import type { SpanRecord } from "./run-events";
import type { TokenCounts, UsageFigures } from "./usage";
import type { WorkflowDocument } from "./workflow-document";

/** Runs over the API (docs/CONTRACT.md section 5). */

export const RUN_STATUSES = ["queued", "running", "paused", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const LIVE_RUN_STATUSES: readonly RunStatus[] = ["queued", "running", "paused"];
export const ENDED_RUN_STATUSES: readonly RunStatus[] = ["succeeded", "failed", "cancelled"];

export function isRunStatus(value: string): value is RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(value);
}

/**
 * POST /api/workflows/:id/runs. Every field is optional: an empty body starts a run with no input.
 * Strict: a misspelt field (`inputs`) or start inputs sent at the top level are refused by name
 * rather than silently ignored, and so is an input key that is a reserved name (reserved-names.ts).
 */
export const startRunRequestSchema = z.strictObject({
  input: withoutReservedKeys(z.record(z.string(), z.unknown())).optional().default({}),
  wait: z.boolean().optional().default(false),
  /** A test run: API, web, fetch and side-effecting tool calls are answered from the blocks' samples, not sent. */
  test: z.boolean().optional().default(false),
  /** A cap in US dollars for this run; it can only lower the workflow's `settings.budget.maxCostPerRun` (the lower wins). */
  budget: requestBudgetSchema.optional(),
});
export type StartRunRequest = z.input<typeof startRunRequestSchema>;

/** POST /api/runs/:id/approvals/:toolCallId. */
export const approvalDecisionSchema = z.strictObject({
  approved: z.boolean({ error: "must be true (approve) or false (deny)" }),
  reason: z.string().max(2000, "must be at most 2000 characters").optional(),
});
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/** A run in the list of GET /api/workflows/:id/runs. */
export interface RunSummary extends UsageFigures {
  id: string;
  workflowId: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  tokens: TokenCounts;
  /** What started it. */
  trigger: RunTrigger;
  /** The deployment it ran; null for the draft. */
  deploymentId: string | null;
  /**
   * The workflow's version it ran (the draft's when it started, or the deployment's): GET
   * /api/runs/:id/document answers that document. Null for runs stored before versions were kept.
   */
  workflowVersion: number | null;
  /** Run from a block (an extension): the run it was re-run from and the block it ran from; null for other runs. */
  rerunOf: RerunOf | null;
  /** A replay (POST /api/runs/:id/replay): the run whose recorded model and tool answers it used; null for other runs. */
  replayOf: string | null;
  /** A test run (`test: true`): its side effects were simulated; models ran unless a block used a recorded answer. */
  test: boolean;
  /** The run's own cap (the lower of the workflow's and the request's), or null when it has none. */
  budget: RunBudget | null;
}

/** A run in the workspace's list (GET /api/runs): as a workflow's list shows it, with the workflow's name. */
export interface WorkspaceRunSummary extends RunSummary {
  workflowName: string;
}

/** The run a re-run reused the upstream results of, and the block it ran from (POST /api/runs/:id/rerun). */
export interface RerunOf {
  runId: string;
  blockId: string;
}

/** POST /api/runs/:id/rerun: the block to run from; the blocks before it reuse the run's results. */
export const rerunRequestSchema = z.strictObject({
  blockId: z
    .string({ error: "must be the id of the block to run from" })
    .regex(BLOCK_ID_PATTERN, "must be the id of the block to run from (1 to 64 characters of A-Z, a-z, 0-9, _ or -)"),
});
export type RerunRequest = z.infer<typeof rerunRequestSchema>;

/** The 202 answer of POST /api/runs/:id/rerun: the new run, queued. */
export interface RerunStarted {
  runId: string;
  rerunOf: RerunOf;
}

/** POST /api/runs/:id/replay: an empty body, or `wait: true` to be answered with the finished replay (as GET /api/runs/:id). */
export const replayRequestSchema = z.strictObject({
  wait: z.boolean().optional().default(false),
});
export type ReplayRequest = z.input<typeof replayRequestSchema>;

/** The 202 answer of POST /api/runs/:id/replay: the new run, queued, answering every model and tool call from the source run's recordings. */
export interface ReplayStarted {
  runId: string;
  replayOf: string;
}

/**
 * Where a run's time went that was no block's, in milliseconds (issue 32): shown in the trace's
 * run summary, so that seconds no block accounts for are not a guess. The last three are the
 * attempt that ended the run (a run that paused or was resumed after a crash had earlier ones).
 */
export interface RunOverhead {
  /** Stored and waiting for a process to take it (queued), before it started. */
  queueMs: number;
  /** From an attempt's start to its first block: reading what the run needs (secrets, caps, earlier results). */
  startMs: number;
  /** Waiting for storage: a finished block's checkpoint made durable before the next block, and the run's end. */
  storageMs: number;
  /** Between blocks, waiting for neither a block nor storage: the engine's own scheduling. */
  betweenBlocksMs: number;
}

/** A run as stored, without its spans. */
export interface RunRecord extends RunSummary {
  input: Record<string, unknown>;
  output: unknown;
  error: ErrorInfo | null;
  /** When it was stored; it waits `queued` until a worker takes it (startedAt). */
  queuedAt: string;
  /** The process executing it now, or the last one that did. */
  worker: string | null;
  /** How many times another process took it over after its process died. */
  recoveries: number;
  /** Its time that was no block's, once it has ended; null for runs that have not, or ended before it was kept. */
  overhead?: RunOverhead | null;
}

/** A span of GET /api/runs/:id: its usage spread into tokens and cost. */
export type ApiSpan = Omit<SpanRecord, "usage" | "model" | "iteration"> &
  UsageFigures & {
    model: string | null;
    iteration: number[] | null;
    tokens: TokenCounts | null;
  };

/** GET /api/runs/:id/document: the workflow as the run ran it, to show the run on its own graph. */
export interface RunDocument {
  runId: string;
  workflowId: string;
  /** The workflow's version it ran; null for runs stored before versions were kept. */
  workflowVersion: number | null;
  /** The document it ran; null for runs stored before documents were kept (show them against the current workflow, saying so). */
  document: WorkflowDocument | null;
}

/** GET /api/runs/:id. */
export interface ApiRun extends RunRecord {
  spans: ApiSpan[];
  /** While `queued`: how many runs wait ahead of it, plus one. */
  queuePosition?: number;
}
