import { z } from "zod";
import { issueDetailSchema } from "./errors";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";
import { workflowDocumentSchema } from "./workflow-document";

/** Workflows over the API (docs/CONTRACT.md section 5). */

/** The stored workflow: `{ id, version, ...document, createdAt, updatedAt }`. */
export const storedWorkflowSchema = workflowDocumentSchema.extend({
  id: z.string(),
  version: z.number().int().describe("Counts saves from 1; a PUT names the version it was based on."),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type StoredWorkflow = z.infer<typeof storedWorkflowSchema>;

/**
 * What POST and PUT answer: the stored workflow and the unfinished parts of the draft (a block
 * config not yet complete, no start block yet), which a run refuses with the same messages.
 */
export const savedWorkflowSchema = storedWorkflowSchema.extend({
  issues: z
    .array(issueDetailSchema)
    .describe(
      "Unfinished parts of the draft (a block config not yet complete, no start block): stored anyway, refused by a run.",
    ),
});
export type SavedWorkflow = z.infer<typeof savedWorkflowSchema>;

/** A workflow in GET /api/workflows. */
export const workflowSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  version: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type WorkflowSummary = z.infer<typeof workflowSummarySchema>;

export const workflowPageSchema = pageSchema("workflows", workflowSummarySchema);

/** The part of a PUT body beside the document: the version it was based on. */
export const workflowVersionSchema = z.object({ version: z.number().int().min(1) });
