import { z } from "zod";
import type { WorkflowDocument } from "./workflow-document";

/** Deployments and what started a run (docs/CONTRACT.md section 9). */

/** POST /api/workflows/:id/deployments. */
export const createDeploymentRequestSchema = z.strictObject({
  note: z.string().max(500, "must be at most 500 characters").optional().default(""),
});
export type CreateDeploymentRequest = z.input<typeof createDeploymentRequestSchema>;

/** A deployment: a frozen copy of a workflow, numbered per workflow. */
export interface DeploymentInfo {
  id: string;
  workflowId: string;
  number: number;
  /** The workflow's version that was deployed: the draft differs when the workflow's version is past it. */
  workflowVersion: number;
  note: string;
  createdAt: string;
  /** Who deployed it (null once the user is deleted). */
  createdBy: { id: string; name: string } | null;
  active: boolean;
}

/** GET /api/workflows/:id/deployments/:deploymentId: a deployment with the document it froze. */
export interface DeploymentWithDocument extends DeploymentInfo {
  document: WorkflowDocument;
}

/** A block as a diff names it. */
export interface DiffBlock {
  id: string;
  name: string;
  type: string;
}

/**
 * What changed from one document to another (GET /api/workflows/:id/deployments/diff), readable:
 * blocks by name, and for a changed block the fields that differ (`config.model`, `position` is
 * left out: moving a block changes nothing it does).
 */
export interface DocumentDiff {
  blocksAdded: DiffBlock[];
  blocksRemoved: DiffBlock[];
  blocksChanged: (DiffBlock & { fields: string[] })[];
  edgesAdded: number;
  edgesRemoved: number;
  /** Top-level parts that differ: `name`, `description`, `variables`, `settings`. */
  otherChanges: string[];
}

/** How a run was started. */
export const RUN_TRIGGER_KINDS = ["editor", "api", "webhook", "schedule", "chat", "tool", "replay", "mcp"] as const;
export type RunTriggerKind = (typeof RUN_TRIGGER_KINDS)[number];

export function isRunTriggerKind(value: string): value is RunTriggerKind {
  return (RUN_TRIGGER_KINDS as readonly string[]).includes(value);
}

/** What started a run, as GET /api/runs/:id and the run list show it. */
export interface RunTrigger {
  kind: RunTriggerKind;
  apiKeyId?: string;
  /** Stored, never shown: a hook's id is its URL's credential (the run list filters `?trigger=webhook`, deliveries link hooks to runs). */
  webhookId?: string;
  scheduleId?: string;
  conversationId?: string;
}

/** Whether a diff has no change at all: the two documents do the same thing. */
export function isEmptyDocumentDiff(diff: DocumentDiff): boolean {
  return diff.blocksAdded.length + diff.blocksRemoved.length + diff.blocksChanged.length + diff.edgesAdded + diff.edgesRemoved + diff.otherChanges.length === 0;
}
