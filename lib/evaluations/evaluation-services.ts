import "server-only";
import { DatasetRepository } from "@/lib/datasets";
import type { PrismaClient } from "@/lib/db";
import type { Runtime } from "@/lib/runtime/runtime";
import { createDeployGate, type DeployGate } from "./deploy-gate";
import type { EvaluationEndpointServices } from "./evaluation-endpoints";
import { EvaluationRepository } from "./evaluation-repository";
import { createEvaluationService } from "./evaluation-service";
import { runtimeScoringTools } from "./runtime-scoring-tools";
import { SuiteRepository } from "./suite-repository";
import { createSuiteService } from "./suite-service";

/** Suites, evaluations and the deploy gate over a runtime and its database (the app's, or a test's). */
export function evaluationServices(
  runtime: Runtime,
  prisma: PrismaClient,
): EvaluationEndpointServices & { gate: DeployGate } {
  const suites = new SuiteRepository(prisma);
  const datasets = new DatasetRepository(prisma);
  const evaluations = new EvaluationRepository(prisma);
  const scoringTools = runtimeScoringTools(runtime);
  const service = createEvaluationService({
    evaluations,
    suites,
    datasets,
    repositories: runtime.repositories,
    startRun: (workspaceId, workflowId, input, options) => runtime.runs.start(workspaceId, workflowId, input, options),
    scoringTools,
    workerId: () => runtime.runs.workerId,
  });
  return {
    suites: createSuiteService(suites, datasets, runtime.repositories, scoringTools),
    evaluations: service,
    gate: createDeployGate({ suites, evaluations, service, repositories: runtime.repositories }),
  };
}
