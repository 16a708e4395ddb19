import "server-only";

/** Suites, scorers and evaluations (docs/CONTRACT.md section 13); the deploy gate reads them. */
export { appDeployGate, appEvaluationEndpoints } from "./app-evaluation-endpoints";
export { createDeployGate, evaluationFailed, type DeployGate, type GateVerdict } from "./deploy-gate";
export { evaluationEndpoints, type EvaluationEndpoints, type EvaluationEndpointServices } from "./evaluation-endpoints";
export { evaluationServices } from "./evaluation-services";
export { EvaluationRepository } from "./evaluation-repository";
export { createEvaluationService, type EvaluationService } from "./evaluation-service";
export { SuiteRepository } from "./suite-repository";
export { createSuiteService, type SuiteService } from "./suite-service";
export { compareEvaluations } from "./evaluation-compare";
