import "server-only";
import { workflowDocumentSchema, type RunDocument } from "@/contract";
import type { Repositories } from "@/lib/db";

/**
 * The workflow as a run ran it, for showing the run on its own graph after the workflow changed.
 * The stored document passed validation when the run started; parsing again applies defaults
 * added since. One that no longer parses (a block type since removed) is answered as it was
 * stored rather than refused: the run happened on it.
 * @throws NotFoundError for a run not in the workspace
 */
export async function runDocument(
  runs: Repositories["runs"],
  workspaceId: string,
  runId: string,
): Promise<RunDocument> {
  const stored = await runs.documentOf(workspaceId, runId);
  const parsed = stored.document === null ? null : workflowDocumentSchema.safeParse(stored.document);
  return {
    runId,
    workflowId: stored.workflowId,
    workflowVersion: stored.workflowVersion,
    document: parsed === null ? null : parsed.success ? parsed.data : (stored.document as RunDocument["document"]),
  };
}
