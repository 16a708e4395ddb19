/**
 * The executor's public surface. Pure TypeScript: no framework, storage or UI imports. It passes
 * on core's surface too (errors, usage, the handler contract), which blocks write against and the
 * engine runs; the I/O folders below the engine import `@/core` itself.
 */
export * from "@/core";
export * from "./block-type";
export * from "./events";
export { recordedCall } from "./recorded-call";
export * from "./graph";
export { DAGBuilder, buildGraph, validateWorkflow } from "./dag-builder";
export {
  connectionProblem,
  createConnectionChecker,
  type ConnectionCandidate,
  type ConnectionChecker,
} from "./connection-checker";
export { enclosingContainers, upstreamBlocks } from "./upstream-blocks";
export { checkpointKey, type BlockCheckpoint, type CheckpointStore } from "./runtime/checkpoint-store";
export type { ReusedResults } from "./runtime/checkpoint-store";
export { rerunPlan, type RerunPlan } from "./rerun-plan";
export {
  DEFAULT_CONCURRENCY,
  ExecutionEngine,
  executeWorkflow,
  type ExecutionRequest,
  type ExecutionResult,
} from "./engine";
export type { Clock } from "./runtime/run-context";
export { answersFromEvents, RunAnswers, type EarlierAsk } from "./runtime/run-answers";
export { SecretRedactor, secretLabel, type SecretStream } from "./runtime/secret-redactor";
export * from "./references";
export * from "./expression";
export { diffDocuments } from "./document-diff";
export { outputText } from "./output-text";
export { EDGE_CONDITION_SCOPE_NAME, parseEdgeCondition, type EdgeCondition } from "./edge-condition";
export { conditionHolds, handleTaken, routeOutput, type RoutedEdge } from "./edge-routing";
