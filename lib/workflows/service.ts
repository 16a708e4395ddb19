import "server-only";
import { type WorkflowDocument, type StoredWorkflow, type WorkflowSummary } from "@/contract";
import { isTrellisError } from "@/executor";
import { getRepositories, type VersionConflictError, type Repositories } from "@/lib/db";

/**
 * Workflow storage for the routes. A version conflict answers with the workflow that won
 * (`error.current`), so the editor can show who won and offer reload or overwrite.
 */
export function createWorkflowService(repositories: Pick<Repositories, "workflows">) {
  const { workflows } = repositories;
  return {
    list: (workspaceId: string): Promise<WorkflowSummary[]> => workflows.list(workspaceId),
    create: (workspaceId: string, document: WorkflowDocument): Promise<StoredWorkflow> => workflows.create(workspaceId, document),
    get: (workspaceId: string, id: string): Promise<StoredWorkflow> => workflows.get(workspaceId, id),
    async update(workspaceId: string, id: string, document: WorkflowDocument, version: number): Promise<StoredWorkflow> {
      try {
        return await workflows.update(workspaceId, id, document, version);
      } catch (error) {
        if (isTrellisError(error) && error.code === "version_conflict") {
          const current = await workflows.get(workspaceId, id).catch(() => null);
          error.responseExtra = { currentVersion: (error as VersionConflictError).currentVersion, current };
        }
        throw error;
      }
    },
    remove: (workspaceId: string, id: string): Promise<void> => workflows.delete(workspaceId, id),
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;

export function workflowService(): WorkflowService {
  return createWorkflowService(getRepositories());
}
