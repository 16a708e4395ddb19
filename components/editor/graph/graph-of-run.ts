import type { RunDocument, StoredWorkflow } from "@/contract";

/**
 * The workflow to show a past run on: the document it ran, or the current one when it kept none.
 * The version and dates stay the current workflow's: the editor's save and deploy state describe
 * the workflow as stored now, and a past run's editor is read-only and changes neither.
 */
export function graphOfRun(ran: RunDocument, current: StoredWorkflow): StoredWorkflow {
  if (!ran.document) return current;
  return {
    ...ran.document,
    id: current.id,
    version: current.version,
    createdAt: current.createdAt,
    updatedAt: current.updatedAt,
  };
}
