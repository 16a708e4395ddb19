/** Knowledge bases on the app's database: the service, its REST handlers, and the worker start. */
export { createKnowledgeService, type KnowledgeService, type KnowledgeServiceOptions } from "./knowledge-service";
export { getKnowledgeService, startKnowledgeWorker, stopKnowledgeWorker } from "./knowledge-runtime";
export type { DocumentRecord } from "./knowledge-store";
export type { VectorCapability } from "./pgvector";
