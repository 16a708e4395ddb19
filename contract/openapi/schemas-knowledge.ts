import { z } from "zod";
import {
  SEARCH_MODES,
  type ChunkView,
  type KnowledgeBaseRecord,
  type KnowledgeBaseSummary,
  type KnowledgeDocument,
  type SearchAnswer,
  type UploadedDocument,
} from "../knowledge";
import type { ListPage } from "../pagination";
import type { SameWireType } from "./same-type";
import { pageSchema, timestampSchema } from "./schemas-common";

/** Answers of the knowledge base endpoints (docs/CONTRACT.md section 5). */

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

export const knowledgeBaseSummarySchema = knowledgeBaseRecordSchema.extend({ documentCount: z.number().int(), chunkCount: z.number().int() });

export const knowledgeBasePageSchema = pageSchema("knowledgeBases", knowledgeBaseSummarySchema);

const documentStatusSchema = z.enum(["pending", "processing", "ready", "failed"]);

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
  embedding: z.object({ tokens: z.number(), cost: z.number().nullable(), unpriced: z.boolean(), estimated: z.boolean() }),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  processedAt: timestampSchema.nullable(),
});

export const knowledgeDocumentPageSchema = pageSchema("documents", knowledgeDocumentSchema);

/** GET /api/knowledge-bases/:id/documents/:documentId answers the document with its base's id. */
export const knowledgeDocumentInBaseSchema = knowledgeDocumentSchema.extend({ knowledgeBaseId: z.string() });

export const uploadedDocumentSchema = z.object({ id: z.string(), name: z.string(), status: documentStatusSchema });

export const uploadAcceptedSchema = z.object({ documents: z.array(uploadedDocumentSchema) });

/**
 * The multipart form of an upload (lib/knowledge/read-upload.ts): not a JSON body, so no zod
 * schema reads it; this one only describes its fields.
 */
export const documentUploadFormSchema = z.object({
  file: z.array(z.file()).describe("One or more files (repeat the field): txt, md, html, pdf, csv or json, at most 10 MB each and 20 per upload."),
  metadata: z.string().optional().describe("A JSON object stored with each document."),
  tags: z.string().optional().describe("Comma-separated tags, stored as `metadata.tags`."),
});

export const chunkViewSchema = z.object({
  chunkIndex: z.number().int(),
  content: z.string(),
  tokenCount: z.number().int(),
  metadata: z.looseObject({ headings: z.array(z.string()).optional(), pages: z.array(z.number().int()).optional() }),
});

export const chunkPageSchema = pageSchema("chunks", chunkViewSchema);

export const searchHitSchema = z.object({
  content: z.string(),
  score: z.number(),
  documentId: z.string(),
  documentName: z.string(),
  chunkIndex: z.number().int(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const searchAnswerSchema = z.object({
  results: z.array(searchHitSchema),
  totalResults: z.number().int(),
  query: z.string(),
  mode: z.enum(SEARCH_MODES),
  usage: z.unknown().describe("What embedding the query cost (`{ tokens, cost, unpriced?, estimated? }`); null for a keyword search."),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof knowledgeBaseRecordSchema>, KnowledgeBaseRecord>,
  SameWireType<z.output<typeof knowledgeBaseSummarySchema>, KnowledgeBaseSummary>,
  SameWireType<z.output<typeof knowledgeDocumentSchema>, KnowledgeDocument>,
  SameWireType<z.output<typeof uploadedDocumentSchema>, UploadedDocument>,
  SameWireType<z.output<typeof chunkViewSchema>, ChunkView>,
  SameWireType<z.output<typeof searchAnswerSchema>, SearchAnswer>,
  SameWireType<z.output<typeof knowledgeBasePageSchema>, ListPage<"knowledgeBases", KnowledgeBaseSummary>>,
  SameWireType<z.output<typeof knowledgeDocumentPageSchema>, ListPage<"documents", KnowledgeDocument>>,
  SameWireType<z.output<typeof chunkPageSchema>, ListPage<"chunks", ChunkView>>,
] = [true, true, true, true, true, true, true, true, true];
void matches;
