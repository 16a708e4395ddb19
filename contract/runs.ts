import { z } from "zod";
import { errorInfoSchema } from "./errors";
import { withoutReservedKeys } from "./reserved-names";
import { BLOCK_ID_PATTERN, workflowDocumentSchema } from "./workflow-document";
import { requestBudgetSchema, runBudgetSchema } from "./budgets";
import { runTriggerSchema } from "./deployments";
import { pageSchema } from "./pagination";
import { appliedPriceSchema } from "./prices";
import { SIMULATION_SOURCES } from "./test-samples";
import { timestampSchema } from "./timestamp";
import { tokenCountsSchema, usageFiguresShape } from "./usage";
import { RUN_STATUSES } from "./run-statuses";

/** Runs over the API (docs/CONTRACT.md section 5). */

// In a file of their own, so that asks and webhooks name them without an import cycle through this file.
export { ENDED_RUN_STATUSES, isRunStatus, LIVE_RUN_STATUSES, RUN_STATUSES, type RunStatus } from "./run-statuses";

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

const runStatusSchema = z.enum(RUN_STATUSES);

/** The run a re-run reused the upstream results of, and the block it ran from (POST /api/runs/:id/rerun). */
const rerunOfSchema = z.object({ runId: z.string(), blockId: z.string() });
export type RerunOf = z.infer<typeof rerunOfSchema>;

/** A run in the list of GET /api/workflows/:id/runs. */
export const runSummarySchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  status: runStatusSchema,
  startedAt: timestampSchema,
  endedAt: timestampSchema.nullable(),
  durationMs: z.number().nullable(),
  tokens: tokenCountsSchema,
  ...usageFiguresShape,
  trigger: runTriggerSchema,
  deploymentId: z.string().nullable().describe("The deployment it ran; null for the draft."),
  /** GET /api/runs/:id/document answers the document of this version. */
  workflowVersion: z
    .number()
    .int()
    .nullable()
    .describe(
      "The workflow's version it ran (the draft's when it started, or the deployment's); null for runs stored before versions were kept.",
    ),
  rerunOf: rerunOfSchema
    .nullable()
    .describe(
      "Run from a block: the run whose upstream results this one reused, and the block it ran from; null for other runs.",
    ),
  replayOf: z
    .string()
    .nullable()
    .describe(
      "A replay: the run whose recorded model and tool answers this one used (nothing was sent, it cost $0); null for other runs.",
    ),
  test: z
    .boolean()
    .describe(
      "A test run: API, web, fetch and side-effecting tool calls were answered from the blocks' samples, not sent.",
    ),
  budget: runBudgetSchema
    .nullable()
    .describe(
      "The run's own cap as it applies (the lower of the workflow's and the request's); null when it has none.",
    ),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runPageSchema = pageSchema("runs", runSummarySchema);

/** A run in the workspace's list (GET /api/runs): as a workflow's list shows it, with the workflow's name. */
export const workspaceRunSummarySchema = runSummarySchema.extend({
  workflowName: z.string().describe("The name of the workflow the run belongs to, as it is now."),
});
export type WorkspaceRunSummary = z.infer<typeof workspaceRunSummarySchema>;

export const workspaceRunPageSchema = pageSchema("runs", workspaceRunSummarySchema);

/** POST /api/runs/:id/rerun: the block to run from; the blocks before it reuse the run's results. */
export const rerunRequestSchema = z.strictObject({
  blockId: z
    .string({ error: "must be the id of the block to run from" })
    .regex(BLOCK_ID_PATTERN, "must be the id of the block to run from (1 to 64 characters of A-Z, a-z, 0-9, _ or -)"),
});
export type RerunRequest = z.infer<typeof rerunRequestSchema>;

/** The 202 answer of POST /api/runs/:id/rerun: the new run, queued, and where it came from. */
export const rerunStartedSchema = z.object({ runId: z.string(), rerunOf: rerunOfSchema });
export type RerunStarted = z.infer<typeof rerunStartedSchema>;

/** POST /api/runs/:id/replay: an empty body, or `wait: true` to be answered with the finished replay (as GET /api/runs/:id). */
export const replayRequestSchema = z.strictObject({
  wait: z.boolean().optional().default(false),
});
export type ReplayRequest = z.input<typeof replayRequestSchema>;

/** The 202 answer of POST /api/runs/:id/replay without `wait`: the new run, queued, answering every model and tool call from the source run's recordings. */
export const replayStartedSchema = z.object({ runId: z.string(), replayOf: z.string() });
export type ReplayStarted = z.infer<typeof replayStartedSchema>;

/** The 202 answer of POST /api/workflows/:id/runs without `wait` and without an event stream. */
export const runStartedSchema = z.object({
  runId: z.string(),
  budget: runBudgetSchema
    .optional()
    .describe(
      "Present when the run has a cap: the one that applies, and whose it is (a request asking for more than the workflow allows is told so).",
    ),
});

/** POST /api/runs/:id/cancel: the run ends `cancelled` soon after. */
export const runCancellingSchema = z.object({ runId: z.string(), status: z.literal("cancelling") });

/**
 * Where a run's time went that was no block's, in milliseconds (issue 32): shown in the trace's
 * run summary, so that seconds no block accounts for are not a guess. The last three are the
 * attempt that ended the run (a run that paused or was resumed after a crash had earlier ones).
 */
export const runOverheadSchema = z.object({
  queueMs: z.number().describe("Stored and waiting for a process to take it (queued), before it started."),
  startMs: z
    .number()
    .describe(
      "From an attempt's start to its first block: reading what the run needs (secrets, caps, earlier results).",
    ),
  storageMs: z
    .number()
    .describe(
      "Waiting for storage: a finished block's checkpoint made durable before the next block, and the run's end.",
    ),
  betweenBlocksMs: z
    .number()
    .describe("Between blocks, waiting for neither a block nor storage: the engine's own scheduling."),
});
export type RunOverhead = z.infer<typeof runOverheadSchema>;

/** A run as stored, without its spans. */
export const runRecordSchema = runSummarySchema.extend({
  input: z.record(z.string(), z.unknown()),
  output: z.unknown(),
  error: errorInfoSchema.nullable(),
  /** When it was stored; it waits `queued` until a worker takes it (startedAt). */
  queuedAt: timestampSchema,
  worker: z.string().nullable().describe("The process executing it now, or the last one that did."),
  recoveries: z.number().int().describe("How many times another process took it over after its process died."),
  overhead: runOverheadSchema
    .nullable()
    .optional()
    .describe(
      "Once ended: where its time went that was no block's, in milliseconds (the attempt that ended it); null before, or for runs that ended before it was kept.",
    ),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

/** A span of GET /api/runs/:id: a stored span (run-events.ts SpanRecord) with its usage spread into tokens and cost. */
export const apiSpanSchema = z.object({
  id: z.string(),
  runId: z.string(),
  parentId: z.string().nullable(),
  kind: z.enum(["block", "model", "tool"]).describe("Model and tool calls are child spans of their block."),
  blockId: z.string(),
  blockName: z.string(),
  blockType: z.string(),
  name: z.string().optional().describe("The model id of a model span, the tool's name of a tool span."),
  model: z.string().nullable(),
  status: z.enum(["running", "succeeded", "failed", "skipped", "cancelled"]),
  startedAt: timestampSchema,
  endedAt: timestampSchema.optional(),
  durationMs: z.number().optional(),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  error: errorInfoSchema.optional(),
  iteration: z.array(z.number().int()).nullable().describe("Loop and parallel iteration indexes, outermost first."),
  attempts: z.number().int().optional().describe("How many times the block's handler was tried."),
  attempt: z
    .number()
    .int()
    .optional()
    .describe("Retry cycles: the pass of its retry cycle the block ran in, 1 for the first (absent outside a cycle)."),
  worker: z.string().optional().describe("The process that executed it."),
  reusedFrom: z
    .string()
    .optional()
    .describe("Run from a block: the run whose result this block reused instead of running (the span has no usage)."),
  simulated: z
    .enum(SIMULATION_SOURCES)
    .optional()
    .describe(
      "Test runs: the call was not made; it was answered from the block's sample, with a 'no sample' answer, or from a recorded output.",
    ),
  price: appliedPriceSchema
    .optional()
    .describe("A priced model call: the price per million tokens it was charged at and where it came from."),
  tokens: tokenCountsSchema.nullable(),
  ...usageFiguresShape,
});
export type ApiSpan = z.infer<typeof apiSpanSchema>;

/** GET /api/runs/:id. */
export const apiRunSchema = runRecordSchema.extend({
  spans: z.array(apiSpanSchema),
  queuePosition: z.number().int().optional().describe("While `queued`: how many runs wait ahead of it, plus one."),
});
export type ApiRun = z.infer<typeof apiRunSchema>;

/** GET /api/runs/:id/document: the workflow as the run ran it, to show the run on its own graph. */
export const runDocumentSchema = z.object({
  runId: z.string(),
  workflowId: z.string(),
  workflowVersion: z
    .number()
    .int()
    .nullable()
    .describe("The workflow's version it ran; null for runs stored before versions were kept."),
  document: workflowDocumentSchema
    .nullable()
    .describe(
      "The workflow document as the run ran it; null for runs stored before documents were kept (the current workflow is all there is).",
    ),
});
export type RunDocument = z.infer<typeof runDocumentSchema>;
