import { createKnowledgeBaseRequestSchema, searchRequestSchema } from "../knowledge";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import {
  chunkPageSchema,
  documentUploadFormSchema,
  knowledgeBasePageSchema,
  knowledgeBaseRecordSchema,
  knowledgeDocumentInBaseSchema,
  knowledgeDocumentPageSchema,
  searchAnswerSchema,
  uploadAcceptedSchema,
} from "./schemas-knowledge";

/** Knowledge bases, documents and search (docs/CONTRACT.md section 5): lib/knowledge/knowledge-endpoints.ts, upload-endpoint.ts. */

const baseId = pathParameter("id", "The knowledge base's id.");
const documentId = pathParameter("documentId", "The document's id.");

export const KNOWLEDGE_OPERATIONS = [
  {
    operationId: "listKnowledgeBases",
    method: "GET",
    path: "/api/knowledge-bases",
    tag: "Knowledge",
    summary: "List knowledge bases, newest first",
    access: "member",
    role: "viewer",
    parameters: PAGE_PARAMETERS,
    answers: [
      {
        status: 200,
        description: "A page of knowledge bases with their document and chunk counts.",
        schema: knowledgeBasePageSchema,
      },
    ],
  },
  {
    operationId: "createKnowledgeBase",
    method: "POST",
    path: "/api/knowledge-bases",
    tag: "Knowledge",
    summary: "Create a knowledge base",
    description:
      "An embedding model the workspace cannot use (an unknown provider, no key) is refused before anything is stored.",
    access: "member",
    role: "editor",
    request: {
      schema: createKnowledgeBaseRequestSchema,
      required: true,
      example: { name: "Handbook", chunkSize: 800, chunkOverlap: 100 },
    },
    answers: [{ status: 201, description: "The new knowledge base.", schema: knowledgeBaseRecordSchema }],
  },
  {
    operationId: "getKnowledgeBase",
    method: "GET",
    path: "/api/knowledge-bases/{id}",
    tag: "Knowledge",
    summary: "Read a knowledge base",
    access: "member",
    role: "viewer",
    parameters: [baseId],
    answers: [{ status: 200, description: "The knowledge base.", schema: knowledgeBaseRecordSchema }],
  },
  {
    operationId: "deleteKnowledgeBase",
    method: "DELETE",
    path: "/api/knowledge-bases/{id}",
    tag: "Knowledge",
    summary: "Delete a knowledge base and its documents",
    access: "member",
    role: "editor",
    parameters: [baseId],
    answers: [{ status: 204, description: "Deleted." }],
  },
  {
    operationId: "listDocuments",
    method: "GET",
    path: "/api/knowledge-bases/{id}/documents",
    tag: "Knowledge",
    summary: "List a knowledge base's documents, newest first",
    access: "member",
    role: "viewer",
    parameters: [baseId, ...PAGE_PARAMETERS],
    answers: [
      {
        status: 200,
        description: "A page of documents with their processing status.",
        schema: knowledgeDocumentPageSchema,
      },
    ],
  },
  {
    operationId: "uploadDocuments",
    method: "POST",
    path: "/api/knowledge-bases/{id}/documents",
    tag: "Knowledge",
    summary: "Upload documents",
    description:
      "Streamed to temporary files, never held in memory: at most 10 MB a file, 20 files and 201 MB a request (413 as soon as one is passed). The files of an upload are stored all or none; each is then `pending` until a background worker parses, chunks and embeds it.",
    access: "member",
    role: "editor",
    parameters: [
      baseId,
      {
        name: "Idempotency-Key",
        in: "header",
        description:
          "1 to 255 printable ASCII characters. Another upload with the same key to the same knowledge base within 24 hours is answered with the first upload's body, without storing anything.",
      },
    ],
    request: { schema: documentUploadFormSchema, contentType: "multipart/form-data", required: true },
    answers: [
      {
        status: 202,
        description: "The files are stored; processing goes on in the background.",
        schema: uploadAcceptedSchema,
        headers: {
          "Idempotent-Replayed": "`true` when this is the answer of an earlier upload with the same Idempotency-Key.",
        },
      },
    ],
    errors: [404, 415],
  },
  {
    operationId: "getDocument",
    method: "GET",
    path: "/api/knowledge-bases/{id}/documents/{documentId}",
    tag: "Knowledge",
    summary: "Read a document",
    access: "member",
    role: "viewer",
    parameters: [baseId, documentId],
    answers: [{ status: 200, description: "The document and its base's id.", schema: knowledgeDocumentInBaseSchema }],
  },
  {
    operationId: "deleteDocument",
    method: "DELETE",
    path: "/api/knowledge-bases/{id}/documents/{documentId}",
    tag: "Knowledge",
    summary: "Delete a document and its chunks",
    access: "member",
    role: "editor",
    parameters: [baseId, documentId],
    answers: [{ status: 204, description: "Deleted." }],
  },
  {
    operationId: "listChunks",
    method: "GET",
    path: "/api/knowledge-bases/{id}/documents/{documentId}/chunks",
    tag: "Knowledge",
    summary: "List a document's chunks, in order",
    description: "`?offset=` is no longer read: an offset other than 0 answers 400.",
    access: "member",
    role: "viewer",
    parameters: [baseId, documentId, ...PAGE_PARAMETERS],
    answers: [{ status: 200, description: "A page of chunks.", schema: chunkPageSchema }],
  },
  {
    operationId: "searchKnowledgeBase",
    method: "POST",
    path: "/api/knowledge-bases/{id}/search",
    tag: "Knowledge",
    summary: "Search a knowledge base",
    description: "A POST only because the query is a body: it changes nothing, so viewers may search.",
    access: "member",
    role: "viewer",
    parameters: [baseId],
    request: {
      schema: searchRequestSchema,
      required: true,
      example: { query: "refund policy", topK: 5, mode: "hybrid" },
    },
    answers: [{ status: 200, description: "The best chunks, best first.", schema: searchAnswerSchema }],
    errors: [502],
  },
] as const satisfies readonly ApiOperation[];
