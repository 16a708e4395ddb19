import "server-only";
import type { SuiteView } from "@/contract";
import type { Repositories } from "@/lib/db";
import type { DatasetRepository } from "@/lib/datasets";
import { RequestError } from "@/lib/http/errors";
import { checkScorers } from "./scorer-checks";
import type { ScoringTools } from "./scoring-tools";
import type { SuiteData, SuiteRepository } from "./suite-repository";

/**
 * Suites: a dataset of the workflow (or of none), scorers checked before they are stored (a bad
 * regular expression or JSON Schema, a judge without its key is 400 at save), thresholds and the
 * deploy gate.
 */
export function createSuiteService(
  suites: SuiteRepository,
  datasets: DatasetRepository,
  repositories: Pick<Repositories, "workflows">,
  scoringTools: ScoringTools,
) {
  const workflowExists = (workspaceId: string) => async (workflowId: string) => {
    try {
      await repositories.workflows.get(workspaceId, workflowId);
      return true;
    } catch {
      return false;
    }
  };
  const check = async (workspaceId: string, workflowId: string, data: SuiteData) => {
    const owner = await datasets.workflowOf(workspaceId, data.datasetId);
    if (owner !== null && owner !== workflowId)
      throw new RequestError(
        "invalid_request",
        "The dataset belongs to another workflow: its cases are that workflow's start inputs.",
        [{ path: "datasetId", message: "belongs to another workflow" }],
      );
    await checkScorers(data.scorers, () => scoringTools(workspaceId), workflowExists(workspaceId));
  };
  return {
    async create(workspaceId: string, workflowId: string, data: SuiteData): Promise<SuiteView> {
      await repositories.workflows.get(workspaceId, workflowId);
      await check(workspaceId, workflowId, data);
      return suites.create(workspaceId, workflowId, data);
    },
    async list(workspaceId: string, workflowId: string): Promise<SuiteView[]> {
      await repositories.workflows.get(workspaceId, workflowId);
      return suites.list(workspaceId, workflowId);
    },
    get: (workspaceId: string, id: string) => suites.get(workspaceId, id),
    async replace(workspaceId: string, id: string, data: SuiteData): Promise<SuiteView> {
      const current = await suites.get(workspaceId, id);
      await check(workspaceId, current.workflowId, data);
      return suites.replace(workspaceId, id, data);
    },
    /** @throws 409 while the workflow requires it before deploying */
    async remove(workspaceId: string, id: string): Promise<void> {
      const suite = await suites.get(workspaceId, id);
      const workflow = await repositories.workflows.get(workspaceId, suite.workflowId);
      if (workflow.settings?.requireEvaluation === id)
        throw new RequestError(
          "conflict",
          `Suite "${suite.name}" is the deploy gate of workflow "${workflow.name}" (settings.requireEvaluation): remove it from the settings first.`,
        );
      await suites.remove(workspaceId, id);
    },
  };
}

export type SuiteService = ReturnType<typeof createSuiteService>;
