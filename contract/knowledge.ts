import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";

/** Knowledge bases over the API (docs/CONTRACT.md section 5). */

/** The built-in embedder: needs no key and no network, and matches words rather than meaning. */
export const OFFLINE_EMBEDDER_ID = "offline/hash-embed";
export const OFFLINE_EMBEDDER_NOTICE =
  "The built-in offline embedder matches words, not meaning: it hashes words and word pairs into a vector, so it finds chunks that share words with the query but not paraphrases or synonyms. Choose an embedding model from a provider for semantic search.";

/** What a knowledge base gets when the request leaves it out. */
export const KNOWLEDGE_BASE_DEFAULTS = {
  embeddingModel: OFFLINE_EMBEDDER_ID,
  chunkSize: 1000,
  chunkOverlap: 200,
} as const;

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
  .refine((value) => value.chunkOverlap < value.chunkSize / 2, {
    path: ["chunkOverlap"],
    message: "must be less than half of chunkSize",
  });
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

export const knowledgeBaseRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  embeddingModel: z.string(),
  embeddingDimensions: z.number().int().nullable().describe("Known once a first document is embedded."),
  chunkSize: z.number().int(),
  chunkOverlap: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type KnowledgeBaseRecord = z.infer<typeof knowledgeBaseRecordSchema>;

/** A knowledge base in GET /api/knowledge-bases. */
export const knowledgeBaseSummarySchema = knowledgeBaseRecordSchema.extend({
  documentCount: z.number().int(),
  chunkCount: z.number().int(),
});
export type KnowledgeBaseSummary = z.infer<typeof knowledgeBaseSummarySchema>;

export const knowledgeBasePageSchema = pageSchema("knowledgeBases", knowledgeBaseSummarySchema);

const documentStatusSchema = z.enum(["pending", "processing", "ready", "failed"]);
export type DocumentStatus = z.infer<typeof documentStatusSchema>;

/** A document in GET /api/knowledge-bases/:id/documents. */
export const knowledgeDocumentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: documentStatusSchema,
  chunkCount: z.number().int(),
  error: z.string().nullable().describe("Why processing failed, when `status` is `failed`."),
  kind: z.string().describe("txt, md, html, pdf, csv or json."),
  sizeBytes: z.number().int(),
  tokenCount: z.number().int(),
  attempts: z.number().int(),
  metadata: z.record(z.string(), z.unknown()),
  embedding: z.object({
    tokens: z.number(),
    cost: z.number().nullable(),
    unpriced: z.boolean(),
    estimated: z.boolean(),
  }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  processedAt: timestampSchema.nullable(),
});
export type KnowledgeDocument = z.infer<typeof knowledgeDocumentSchema>;

export const knowledgeDocumentPageSchema = pageSchema("documents", knowledgeDocumentSchema);

/** GET /api/knowledge-bases/:id/documents/:documentId answers the document with its base's id. */
export const knowledgeDocumentInBaseSchema = knowledgeDocumentSchema.extend({ knowledgeBaseId: z.string() });

/** What an upload answers (202), one entry per file. */
export const uploadedDocumentSchema = z.object({ id: z.string(), name: z.string(), status: documentStatusSchema });
export type UploadedDocument = z.infer<typeof uploadedDocumentSchema>;

export const uploadAcceptedSchema = z.object({ documents: z.array(uploadedDocumentSchema) });

export const chunkViewSchema = z.object({
  chunkIndex: z.number().int(),
  content: z.string(),
  tokenCount: z.number().int(),
  metadata: z.looseObject({ headings: z.array(z.string()).optional(), pages: z.array(z.number().int()).optional() }),
});
export type ChunkView = z.infer<typeof chunkViewSchema>;

export const chunkPageSchema = pageSchema("chunks", chunkViewSchema);

export const searchHitSchema = z.object({
  content: z.string(),
  score: z.number(),
  documentId: z.string(),
  documentName: z.string(),
  chunkIndex: z.number().int(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchAnswerSchema = z.object({
  results: z.array(searchHitSchema),
  totalResults: z.number().int(),
  query: z.string(),
  mode: z.enum(SEARCH_MODES),
  usage: z
    .unknown()
    .describe("What embedding the query cost (`{ tokens, cost, unpriced?, estimated? }`); null for a keyword search."),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;
