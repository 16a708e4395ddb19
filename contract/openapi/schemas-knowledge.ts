import { z } from "zod";

/** The schemas of the knowledge base endpoints (docs/CONTRACT.md section 5), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export {
  chunkPageSchema,
  chunkViewSchema,
  knowledgeBasePageSchema,
  knowledgeBaseRecordSchema,
  knowledgeBaseSummarySchema,
  knowledgeDocumentInBaseSchema,
  knowledgeDocumentPageSchema,
  knowledgeDocumentSchema,
  searchAnswerSchema,
  searchHitSchema,
  uploadAcceptedSchema,
  uploadedDocumentSchema,
} from "../knowledge";

/**
 * The multipart form of an upload (lib/knowledge/read-upload.ts): not a JSON body, so no zod
 * schema reads it; this one only describes its fields.
 */
export const documentUploadFormSchema = z.object({
  file: z
    .array(z.file())
    .describe(
      "One or more files (repeat the field): txt, md, html, pdf, csv or json, at most 10 MB each and 20 per upload.",
    ),
  metadata: z.string().optional().describe("A JSON object stored with each document."),
  tags: z.string().optional().describe("Comma-separated tags, stored as `metadata.tags`."),
});
