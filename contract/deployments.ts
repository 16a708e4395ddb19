import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";
import { workflowDocumentSchema } from "./workflow-document";

/** Deployments and what started a run (docs/CONTRACT.md section 9). */

/** POST /api/workflows/:id/deployments. */
export const createDeploymentRequestSchema = z.strictObject({
  note: z.string().max(500, "must be at most 500 characters").optional().default(""),
  /** An admin deploys a draft the evaluation gate refused; the note says why and is recorded on the deployment. */
  override: z
    .strictObject({ note: z.string().trim().min(1, "must say why the gate is overridden").max(500) })
    .optional(),
});
export type CreateDeploymentRequest = z.input<typeof createDeploymentRequestSchema>;

/** A deployment: a frozen copy of a workflow, numbered per workflow. */
export const deploymentInfoSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  number: z.number().int().describe("Counts the workflow's deployments from 1."),
  /** The draft differs when the workflow's version is past it. */
  workflowVersion: z.number().int().describe("The workflow's version that was deployed."),
  note: z.string(),
  createdAt: timestampSchema,
  createdBy: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .describe("Who deployed it; null once the user is deleted."),
  active: z.boolean(),
  evaluationId: z
    .string()
    .nullable()
    .optional()
    .describe("The evaluation the deploy gate judged the draft by; null when the workflow requires none."),
  gateOverride: z
    .object({ note: z.string(), userId: z.string().nullable(), failures: z.array(z.string()) })
    .nullable()
    .optional()
    .describe("Set when an admin deployed although the gate refused: why, who, and what the gate found."),
});
export type DeploymentInfo = z.infer<typeof deploymentInfoSchema>;

export const deploymentPageSchema = pageSchema("deployments", deploymentInfoSchema);

/** GET /api/workflows/:id/deployments/:deploymentId: the deployment and the document it froze. */
export const deploymentWithDocumentSchema = deploymentInfoSchema.extend({
  document: workflowDocumentSchema,
});
export type DeploymentWithDocument = z.infer<typeof deploymentWithDocumentSchema>;

/** A block as a diff names it. */
const diffBlockSchema = z.object({ id: z.string(), name: z.string(), type: z.string() });
export type DiffBlock = z.infer<typeof diffBlockSchema>;

/**
 * What changed from one document to another (GET /api/workflows/:id/deployments/diff), readable:
 * blocks by name, and for a changed block the fields that differ (`config.model`, `position` is
 * left out: moving a block changes nothing it does).
 */
export const documentDiffSchema = z.object({
  blocksAdded: z.array(diffBlockSchema),
  blocksRemoved: z.array(diffBlockSchema),
  blocksChanged: z.array(
    diffBlockSchema.extend({ fields: z.array(z.string()).describe("The fields that differ, e.g. `config.model`.") }),
  ),
  edgesAdded: z.number().int(),
  edgesRemoved: z.number().int(),
  otherChanges: z
    .array(z.string())
    .describe("Top-level parts that differ: `name`, `description`, `variables`, `settings`."),
});
export type DocumentDiff = z.infer<typeof documentDiffSchema>;

/** How a run was started. */
export const RUN_TRIGGER_KINDS = [
  "editor",
  "api",
  "webhook",
  "schedule",
  "chat",
  "tool",
  "replay",
  "mcp",
  "evaluation",
  /** Not a run of the workflow: a copilot request, recorded as one so its tokens and cost count in usage and budgets. */
  "copilot",
] as const;
export type RunTriggerKind = (typeof RUN_TRIGGER_KINDS)[number];

export function isRunTriggerKind(value: string): value is RunTriggerKind {
  return (RUN_TRIGGER_KINDS as readonly string[]).includes(value);
}

/** What started a run, as GET /api/runs/:id and the run list show it. */
export const runTriggerSchema = z
  .object({
    kind: z.enum(RUN_TRIGGER_KINDS),
    apiKeyId: z.string().optional(),
    /** The member who started it with a session (the editor, a rerun, a replay); absent for keys, hooks, schedules and chats. */
    userId: z.string().optional(),
    /** Stored, never shown: a hook's id is its URL's credential (the run list filters `?trigger=webhook`, deliveries link hooks to runs). */
    webhookId: z.string().optional(),
    scheduleId: z.string().optional(),
    conversationId: z.string().optional(),
  })
  .describe("What started the run; the id of the key, hook, schedule or conversation that did.");
export type RunTrigger = z.infer<typeof runTriggerSchema>;

/** Whether a diff has no change at all: the two documents do the same thing. */
export function isEmptyDocumentDiff(diff: DocumentDiff): boolean {
  return (
    diff.blocksAdded.length +
      diff.blocksRemoved.length +
      diff.blocksChanged.length +
      diff.edgesAdded +
      diff.edgesRemoved +
      diff.otherChanges.length ===
    0
  );
}
