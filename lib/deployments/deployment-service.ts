import "server-only";
import type { DeploymentInfo, DeploymentWithDocument, DocumentDiff, WorkflowDocument } from "@/contract";
import { diffDocuments } from "@/executor";
import { processReadCache, type WorkspaceReadCache } from "@/lib/cache";
import type { KeysetPage, KeysetResult, Repositories, TimeAndId } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";
import { parseWorkflowDocument } from "@/lib/workflows/parse-document";
import { documentToRun } from "@/lib/runs/run-target";
import { evaluationFailed, type DeployGate } from "@/lib/evaluations";

/** Who deploys: the user, whether they may override the evaluation gate (admins and owners), and their override note. */
export interface DeployRequest {
  note: string;
  userId: string | null;
  mayOverride?: boolean;
  override?: { note: string } | undefined;
}

/** A deployment as the API shows it: without the document it froze (GET .../deployments/:id adds it). */
export function deploymentInfo({ document: _document, ...info }: DeploymentWithDocument): DeploymentInfo {
  return info;
}

/** Either side of a diff: a deployment's id, or `draft` for the workflow as stored now. */
export type DiffSide = string;

/**
 * Deploying, listing, rolling back and comparing. A deployment freezes the stored draft; a draft
 * with unfinished parts (the issues the editor shows) cannot be deployed, since every trigger
 * would then fail with them.
 */
export function createDeploymentService(
  repositories: Pick<Repositories, "workflows" | "deployments">,
  /** Told of every deploy and rollback, so this process's next run executes the new one (other processes hear the database's notification). */
  readCache: Pick<WorkspaceReadCache, "changing"> = processReadCache(),
  /** The evaluation gate of workflows that require a suite before deploying (settings.requireEvaluation). */
  gate?: DeployGate,
) {
  const { deployments } = repositories;
  const documentOf = async (workspaceId: string, workflowId: string, side: DiffSide): Promise<WorkflowDocument> =>
    side === "draft"
      ? (await documentToRun(repositories, workspaceId, workflowId, "draft")).document
      : (await deployments.get(workspaceId, workflowId, side)).document;
  return {
    async deploy(workspaceId: string, workflowId: string, options: DeployRequest): Promise<DeploymentWithDocument> {
      const workflow = await repositories.workflows.get(workspaceId, workflowId);
      const { document, issues } = parseWorkflowDocument(workflow);
      if (issues.length > 0) {
        throw new RequestError(
          "invalid_workflow",
          `Cannot deploy: ${describeIssues(`the workflow "${workflow.name}"`, issues, { withPaths: false })}`,
          issues,
        );
      }
      if (options.override && !options.mayOverride)
        throw new RequestError("forbidden", "Only an admin or the owner may deploy past the evaluation gate.");
      // A draft the gate fails is not deployed, unless an admin overrides it; the override is kept on the deployment.
      const verdict = gate ? await gate.judge(workspaceId, workflow, options.userId) : null;
      if (verdict && verdict.failures.length > 0 && !options.override) throw evaluationFailed(verdict);
      return readCache.changing(workspaceId, () =>
        deployments.create(workspaceId, workflowId, {
          document,
          workflowVersion: workflow.version,
          note: options.note,
          createdById: options.userId,
          evaluationId: verdict?.evaluationId ?? null,
          gateOverride:
            verdict && verdict.failures.length > 0 && options.override
              ? { note: options.override.note, userId: options.userId, failures: verdict.failures }
              : null,
        }),
      );
    },
    list: (
      workspaceId: string,
      workflowId: string,
      page: KeysetPage<TimeAndId>,
    ): Promise<KeysetResult<DeploymentWithDocument, TimeAndId>> => deployments.list(workspaceId, workflowId, page),
    get: (workspaceId: string, workflowId: string, id: string): Promise<DeploymentWithDocument> =>
      deployments.get(workspaceId, workflowId, id),
    activate: (workspaceId: string, workflowId: string, id: string): Promise<DeploymentWithDocument> =>
      readCache.changing(workspaceId, () => deployments.activate(workspaceId, workflowId, id)),
    async diff(workspaceId: string, workflowId: string, from: DiffSide, to: DiffSide): Promise<DocumentDiff> {
      const [before, after] = await Promise.all([
        documentOf(workspaceId, workflowId, from),
        documentOf(workspaceId, workflowId, to),
      ]);
      return diffDocuments(before, after);
    },
  };
}

export type DeploymentService = ReturnType<typeof createDeploymentService>;
