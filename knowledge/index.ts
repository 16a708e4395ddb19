/** The knowledge pipeline: parse, chunk, embed, fuse. Storage and HTTP live in lib/knowledge. */
export * from "./types";
export * from "./errors";
export { detectFileKind, SUPPORTED_EXTENSIONS } from "./parsing/file-kind";
export { safeFileName } from "./parsing/safe-file-name";
export { parseFile } from "./parsing/parse-file";
export { chunkDocument } from "./chunking/chunk-document";
export { countTokens, CHUNK_TOKENIZER } from "./chunking/tokenizer";
export type { Embedder, EmbeddingBatch } from "./embedders/embedder";
export { createHashEmbedder, hashEmbed, OFFLINE_EMBEDDER_DIMENSIONS } from "./embedders/hash-embedder";
export { createEmbedder, type EmbedderOptions } from "./embedders/ai-sdk-embedder";
export { priceEmbeddingUsage } from "./embedders/embedding-price";
export { reciprocalRankFusion, RRF_K, type FusedItem } from "./search/reciprocal-rank-fusion";
export { signBits } from "./search/sign-bits";
export * from "./search/search-types";
export {
  processDocument,
  prepareDocument,
  type EmbeddedChunk,
  type PreparedDocument,
  type ProcessedDocument,
} from "./ingestion/process-document";
export {
  IngestThreads,
  INGEST_TIME_BUDGET_SETTING,
  DEFAULT_INGEST_TIME_BUDGET_MS,
  type IngestThreadOptions,
} from "./ingestion/ingest-threads";
export {
  IngestionWorker,
  type ClaimedJob,
  type IngestionQueue,
  type IngestionWorkerOptions,
} from "./ingestion/ingestion-worker";
