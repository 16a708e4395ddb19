import "server-only";
import { workflowDocumentSchema, type WorkflowDocument } from "@/contract";
import { TrellisError } from "@/executor";
import type { Repositories } from "@/lib/db";

/**
 * What a run executes: the workflow's draft as stored now (the editor), its active deployment
 * (every trigger), or one deployment named by id (an evaluation of a past or active deployment).
 */
export type RunTarget = "draft" | "active-deployment" | { deploymentId: string };

export interface DocumentToRun {
  document: WorkflowDocument;
  /** The deployment it comes from; undefined for the draft. */
  deploymentId?: string;
  /** The workflow's version the document is: the draft's now, or the one the deployment was made from. */
  workflowVersion: number;
}

/**
 * Reads the document a run will execute. Stored documents passed validation when saved or
 * deployed; parsing again applies defaults added since.
 * @throws NotFoundError for a workflow not in the workspace; `not_deployed` when a deployment is asked for and there is none
 */
export async function documentToRun(
  repositories: Pick<Repositories, "workflows" | "deployments">,
  workspaceId: string,
  workflowId: string,
  target: RunTarget,
): Promise<DocumentToRun> {
  if (typeof target === "object") {
    const deployment = await repositories.deployments.get(workspaceId, workflowId, target.deploymentId);
    return {
      document: workflowDocumentSchema.parse(deployment.document),
      deploymentId: deployment.id,
      workflowVersion: deployment.workflowVersion,
    };
  }
  if (target === "active-deployment") {
    const deployment = await repositories.deployments.active(workspaceId, workflowId);
    if (!deployment) {
      throw new TrellisError(
        "not_deployed",
        // Hook callers and chat visitors see this too: it names no id or route.
        "This workflow has no deployment yet: deploy it first (Deploy in the editor, or POST .../deployments).",
      );
    }
    return {
      document: workflowDocumentSchema.parse(deployment.document),
      deploymentId: deployment.id,
      workflowVersion: deployment.workflowVersion,
    };
  }
  const workflow = await repositories.workflows.get(workspaceId, workflowId);
  return {
    document: workflowDocumentSchema.parse({
      name: workflow.name,
      description: workflow.description,
      variables: workflow.variables,
      blocks: workflow.blocks,
      edges: workflow.edges,
      settings: workflow.settings,
    }),
    workflowVersion: workflow.version,
  };
}
