import { z } from "zod";
import { RUN_TRIGGER_KINDS } from "../deployments";
import {
  RUN_STATUSES,
  type ApiRun,
  type ApiSpan,
  type ReplayStarted,
  type RerunStarted,
  type RunDocument,
  type RunSummary,
  type WorkspaceRunSummary,
} from "../runs";
import type { ListPage } from "../pagination";
import type { RunEvent } from "../run-events";
import { SIMULATION_SOURCES } from "../test-samples";
import { workflowDocumentSchema } from "../workflow-document";
import { workflowVersionSchema, type SavedWorkflow, type StoredWorkflow, type WorkflowSummary } from "../workflows";
import type { SameWireType } from "./same-type";
import { runBudgetSchema } from "./schemas-budgets";
import { errorInfoSchema, issueDetailSchema, pageSchema, timestampSchema, tokenCountsSchema, usageFiguresShape } from "./schemas-common";
import { appliedPriceSchema } from "./schemas-prices";

/** Answers of the workflow and run endpoints (docs/CONTRACT.md sections 5, 10 and 11). */

export const storedWorkflowSchema = workflowDocumentSchema.extend({
  id: z.string(),
  version: z.number().int().describe("Counts saves from 1; a PUT names the version it was based on."),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const savedWorkflowSchema = storedWorkflowSchema.extend({
  issues: z
    .array(issueDetailSchema)
    .describe("Unfinished parts of the draft (a block config not yet complete, no start block): stored anyway, refused by a run."),
});

export const workflowSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const workflowPageSchema = pageSchema("workflows", workflowSummarySchema);

/** PUT /api/workflows/:id: the document and the version it was based on (lib/workflows/parse-document.ts reads both). */
export const workflowUpdateRequestSchema = workflowDocumentSchema.extend(workflowVersionSchema.shape);

const runStatusSchema = z.enum(RUN_STATUSES);

const runTriggerSchema = z
  .object({
    kind: z.enum(RUN_TRIGGER_KINDS),
    apiKeyId: z.string().optional(),
    webhookId: z.string().optional(),
    scheduleId: z.string().optional(),
    conversationId: z.string().optional(),
  })
  .describe("What started the run; the id of the key, hook, schedule or conversation that did.");

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
  workflowVersion: z
    .number()
    .int()
    .nullable()
    .describe("The workflow's version it ran (the draft's when it started, or the deployment's); null for runs stored before versions were kept."),
  rerunOf: z
    .object({ runId: z.string(), blockId: z.string() })
    .nullable()
    .describe("Run from a block: the run whose upstream results this one reused, and the block it ran from; null for other runs."),
  replayOf: z
    .string()
    .nullable()
    .describe("A replay: the run whose recorded model and tool answers this one used (nothing was sent, it cost $0); null for other runs."),
  test: z.boolean().describe("A test run: API, web, fetch and side-effecting tool calls were answered from the blocks' samples, not sent."),
  budget: runBudgetSchema.nullable().describe("The run's own cap as it applies (the lower of the workflow's and the request's); null when it has none."),
});

export const runPageSchema = pageSchema("runs", runSummarySchema);

export const workspaceRunSummarySchema = runSummarySchema.extend({
  workflowName: z.string().describe("The name of the workflow the run belongs to, as it is now."),
});

export const workspaceRunPageSchema = pageSchema("runs", workspaceRunSummarySchema);

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
  worker: z.string().optional().describe("The process that executed it."),
  reusedFrom: z.string().optional().describe("Run from a block: the run whose result this block reused instead of running (the span has no usage)."),
  simulated: z
    .enum(SIMULATION_SOURCES)
    .optional()
    .describe("Test runs: the call was not made; it was answered from the block's sample, with a 'no sample' answer, or from a recorded output."),
  price: appliedPriceSchema.optional().describe("A priced model call: the price per million tokens it was charged at and where it came from."),
  tokens: tokenCountsSchema.nullable(),
  ...usageFiguresShape,
});

export const apiRunSchema = runSummarySchema.extend({
  input: z.record(z.string(), z.unknown()),
  output: z.unknown(),
  error: errorInfoSchema.nullable(),
  queuedAt: timestampSchema,
  worker: z.string().nullable().describe("The process executing it now, or the last one that did."),
  recoveries: z.number().int().describe("How many times another process took it over after its process died."),
  overhead: z
    .object({
      queueMs: z.number().describe("Waiting queued before it started."),
      startMs: z.number().describe("From the attempt's start to its first block (reading secrets, caps, earlier results)."),
      storageMs: z.number().describe("Waiting for its checkpoints to be stored."),
      betweenBlocksMs: z.number().describe("Between blocks, waiting for neither a block nor storage."),
    })
    .nullable()
    .optional()
    .describe("Once ended: where its time went that was no block's, in milliseconds (the attempt that ended it); null before."),
  spans: z.array(apiSpanSchema),
  queuePosition: z.number().int().optional().describe("While `queued`: how many runs wait ahead of it, plus one."),
});

/** GET /api/runs/:id/document. */
export const runDocumentSchema = z.object({
  runId: z.string(),
  workflowId: z.string(),
  workflowVersion: z.number().int().nullable().describe("The workflow's version it ran; null for runs stored before versions were kept."),
  document: workflowDocumentSchema
    .nullable()
    .describe("The workflow document as the run ran it; null for runs stored before documents were kept (the current workflow is all there is)."),
});

/** POST /api/workflows/:id/runs without `wait` and without an event stream. */
export const runStartedSchema = z.object({
  runId: z.string(),
  budget: runBudgetSchema
    .optional()
    .describe("Present when the run has a cap: the one that applies, and whose it is (a request asking for more than the workflow allows is told so)."),
});

/** POST /api/runs/:id/rerun: the new run, queued, and where it came from. */
export const rerunStartedSchema = z.object({ runId: z.string(), rerunOf: z.object({ runId: z.string(), blockId: z.string() }) });

/** POST /api/runs/:id/replay without `wait`: the new run, queued, and the run it replays. */
export const replayStartedSchema = z.object({ runId: z.string(), replayOf: z.string() });

/** POST /api/runs/:id/cancel: the run ends `cancelled` soon after. */
export const runCancellingSchema = z.object({ runId: z.string(), status: z.literal("cancelling") });

/** A tool call waiting for a person: its `tool.approval.requested` event without the type. */
export const pendingApprovalSchema = z.object({
  runId: z.string(),
  blockId: z.string(),
  spanId: z.string().nullable(),
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  requestedAt: timestampSchema,
});

/** GET /api/runs/:id/approvals. */
export const runApprovalsSchema = z.object({ runId: z.string(), status: runStatusSchema, approvals: z.array(pendingApprovalSchema) });

/** POST /api/runs/:id/approvals/:toolCallId: the decision as recorded. */
export const approvalDecidedSchema = z.object({
  runId: z.string(),
  toolCallId: z.string(),
  toolName: z.string(),
  approved: z.boolean(),
  reason: z.string().optional().describe("Present when the decision gave one (trimmed)."),
});

type ApprovalRequested = Omit<Extract<RunEvent, { type: "tool.approval.requested" }>, "type">;
// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof storedWorkflowSchema>, StoredWorkflow>,
  SameWireType<z.output<typeof savedWorkflowSchema>, SavedWorkflow>,
  SameWireType<z.output<typeof workflowSummarySchema>, WorkflowSummary>,
  SameWireType<z.output<typeof runSummarySchema>, RunSummary>,
  SameWireType<z.output<typeof apiSpanSchema>, ApiSpan>,
  SameWireType<z.output<typeof apiRunSchema>, ApiRun>,
  SameWireType<z.output<typeof runDocumentSchema>, RunDocument>,
  SameWireType<z.output<typeof pendingApprovalSchema>, ApprovalRequested>,
  SameWireType<z.output<typeof workflowPageSchema>, ListPage<"workflows", WorkflowSummary>>,
  SameWireType<z.output<typeof runPageSchema>, ListPage<"runs", RunSummary>>,
  SameWireType<z.output<typeof workspaceRunPageSchema>, ListPage<"runs", WorkspaceRunSummary>>,
  SameWireType<z.output<typeof rerunStartedSchema>, RerunStarted>,
  SameWireType<z.output<typeof replayStartedSchema>, ReplayStarted>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
void matches;
