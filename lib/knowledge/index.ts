import "server-only";
/** Knowledge bases on the app's database: the service, its endpoints, and the worker start. */
export { appKnowledgeEndpoints } from "./app-knowledge-endpoints";
export { knowledgeEndpoints, type KnowledgeEndpoints } from "./knowledge-endpoints";
export { createKnowledgeService, type KnowledgeService, type KnowledgeServiceOptions } from "./knowledge-service";
export { getKnowledgeService, startKnowledgeWorker, stopKnowledgeWorker } from "./knowledge-runtime";
export type { DocumentRecord } from "./knowledge-store";
export type { VectorCapability } from "./pgvector";
