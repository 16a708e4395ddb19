import { z } from "zod";
import type { IssueDetail } from "./errors";
import type { WorkflowDocument } from "./workflow-document";

/** Workflows over the API (docs/CONTRACT.md section 5). */

/** The stored workflow: `{ id, version, ...document, createdAt, updatedAt }`. */
export type StoredWorkflow = WorkflowDocument & {
  id: string;
  version: number;
  createdAt: string;
  updatedAt: string;
};

/**
 * What POST and PUT answer: the stored workflow and the unfinished parts of the draft (a block
 * config not yet complete, no start block yet), which a run refuses with the same messages.
 */
export type SavedWorkflow = StoredWorkflow & { issues: IssueDetail[] };

/** A workflow in GET /api/workflows. */
export interface WorkflowSummary {
  id: string;
  name: string;
  description: string;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The part of a PUT body beside the document: the version it was based on. */
export const workflowVersionSchema = z.object({ version: z.number().int().min(1) });
