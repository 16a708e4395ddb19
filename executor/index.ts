/** The executor's public surface. Pure TypeScript: no framework, storage or UI imports. */
export * from "./block-type";
export * from "./errors";
export * from "./events";
export * from "./handler";
export * from "./usage";
export * from "./graph";
export { DAGBuilder, buildGraph, validateWorkflow } from "./dag-builder";
export { connectionProblem, createConnectionChecker, type ConnectionCandidate, type ConnectionChecker } from "./connection-checker";
export { enclosingContainers, upstreamBlocks } from "./upstream-blocks";
export { checkpointKey, type BlockCheckpoint, type CheckpointStore } from "./runtime/checkpoints";
export { DEFAULT_CONCURRENCY, ExecutionEngine, executeWorkflow, type ExecutionRequest, type ExecutionResult } from "./engine";
export type { Clock } from "./runtime/run-context";
export { answersFromEvents, RunAnswers, type AskRequest, type EarlierAsk } from "./runtime/answers";
export { SecretRedactor, secretLabel, type SecretStream } from "./runtime/secret-redactor";
export * from "./references";
export * from "./expression";
export { diffDocuments } from "./document-diff";
