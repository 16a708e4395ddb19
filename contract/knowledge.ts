import { z } from "zod";

/** Knowledge bases over the API (docs/CONTRACT.md section 5). */

/** The built-in embedder: needs no key and no network, and matches words rather than meaning. */
export const OFFLINE_EMBEDDER_ID = "offline/hash-embed";
export const OFFLINE_EMBEDDER_NOTICE =
  "The built-in offline embedder matches words, not meaning: it hashes words and word pairs into a vector, so it finds chunks that share words with the query but not paraphrases or synonyms. Choose an embedding model from a provider for semantic search.";

/** What a knowledge base gets when the request leaves it out. */
export const KNOWLEDGE_BASE_DEFAULTS = { embeddingModel: OFFLINE_EMBEDDER_ID, chunkSize: 1000, chunkOverlap: 200 } as const;

/** POST /api/knowledge-bases. */
export const createKnowledgeBaseRequestSchema = z
  .object({
    name: z.string().trim().min(1, "is required").max(200),
    description: z.string().max(2000).optional(),
    embeddingModel: z
      .string()
      .regex(/^[a-z-]+\/.+$/, "must look like provider/model, e.g. offline/hash-embed or openai/text-embedding-3-small")
      .default(KNOWLEDGE_BASE_DEFAULTS.embeddingModel),
    chunkSize: z.number().int().min(50).max(8000).default(KNOWLEDGE_BASE_DEFAULTS.chunkSize),
    chunkOverlap: z.number().int().min(0).default(KNOWLEDGE_BASE_DEFAULTS.chunkOverlap),
  })
  .refine((value) => value.chunkOverlap < value.chunkSize / 2, { path: ["chunkOverlap"], message: "must be less than half of chunkSize" });
export type CreateKnowledgeBaseRequest = z.input<typeof createKnowledgeBaseRequestSchema>;

export const SEARCH_MODES = ["hybrid", "vector", "keyword"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** POST /api/knowledge-bases/:id/search. */
export const searchRequestSchema = z.object({
  query: z.string().trim().min(1, "is required").max(2000),
  topK: z.number().int().min(1).max(100).optional(),
  mode: z.enum(SEARCH_MODES).optional(),
  minScore: z.number().optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
});
export type SearchRequestBody = z.input<typeof searchRequestSchema>;

export interface KnowledgeBaseRecord {
  id: string;
  name: string;
  description: string;
  embeddingModel: string;
  embeddingDimensions: number | null;
  chunkSize: number;
  chunkOverlap: number;
  createdAt: string;
  updatedAt: string;
}

/** A knowledge base in GET /api/knowledge-bases. */
export interface KnowledgeBaseSummary extends KnowledgeBaseRecord {
  documentCount: number;
  chunkCount: number;
}

export type DocumentStatus = "pending" | "processing" | "ready" | "failed";

/** A document in GET /api/knowledge-bases/:id/documents. */
export interface KnowledgeDocument {
  id: string;
  name: string;
  status: DocumentStatus;
  chunkCount: number;
  error: string | null;
  kind: string;
  sizeBytes: number;
  tokenCount: number;
  attempts: number;
  metadata: Record<string, unknown>;
  embedding: { tokens: number; cost: number | null; unpriced: boolean; estimated: boolean };
  createdAt: string;
  updatedAt: string;
  processedAt: string | null;
}

/** What an upload answers (202), one entry per file. */
export type UploadedDocument = Pick<KnowledgeDocument, "id" | "name" | "status">;

export interface ChunkView {
  chunkIndex: number;
  content: string;
  tokenCount: number;
  metadata: { headings?: string[]; pages?: number[]; [key: string]: unknown };
}

export interface SearchHit {
  content: string;
  score: number;
  documentId: string;
  documentName: string;
  chunkIndex: number;
  metadata?: Record<string, unknown>;
}

export interface SearchAnswer {
  results: SearchHit[];
  totalResults: number;
  query: string;
  mode: SearchMode;
  usage: unknown;
}
