import { z } from "zod";
import { DEFAULT_CHUNKING } from "@/knowledge/types";
import { OFFLINE_EMBEDDER_ID } from "@/knowledge/embedders/hash-embedder";

/** POST /api/knowledge-bases body (CONTRACT.md section 5). */
export const createKnowledgeBaseSchema = z
  .object({
    name: z.string().trim().min(1, "is required").max(200),
    description: z.string().max(2000).optional(),
    embeddingModel: z
      .string()
      .regex(/^[a-z-]+\/.+$/, "must look like provider/model, e.g. offline/hash-embed or openai/text-embedding-3-small")
      .default(OFFLINE_EMBEDDER_ID),
    chunkSize: z.number().int().min(50).max(8000).default(DEFAULT_CHUNKING.chunkSize),
    chunkOverlap: z.number().int().min(0).default(DEFAULT_CHUNKING.chunkOverlap),
  })
  .refine((value) => value.chunkOverlap < value.chunkSize / 2, { path: ["chunkOverlap"], message: "must be less than half of chunkSize" });

export type CreateKnowledgeBaseInput = z.input<typeof createKnowledgeBaseSchema>;

/** POST /api/knowledge-bases/:id/search body. */
export const searchBodySchema = z.object({
  query: z.string().trim().min(1, "is required").max(2000),
  topK: z.number().int().min(1).max(100).optional(),
  mode: z.enum(["hybrid", "vector", "keyword"]).optional(),
  minScore: z.number().optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
});

/** Upload limits: per file and per request. */
export const UPLOAD_LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxFiles: 20 };
