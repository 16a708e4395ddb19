import { readJsonBody } from "@/lib/http/read-json";
import { RequestError } from "@/lib/http/errors";
import type { KnowledgeService } from "./knowledge-service";
import { searchRequestSchema } from "@/contract";
import type { DocumentRecord } from "./knowledge-store";
import { readUploadForm } from "./read-upload";

/** The REST API of knowledge bases (docs/CONTRACT.md section 5), kept here so route files stay thin. */

const MAX_JSON_BYTES = 256 * 1024;

function documentView(document: DocumentRecord) {
  const { id, name, status, chunkCount, error, kind, sizeBytes, tokenCount, attempts, metadata, embedding, createdAt, updatedAt, processedAt } = document;
  return { id, name, status, chunkCount, error, kind, sizeBytes, tokenCount, attempts, metadata, embedding, createdAt, updatedAt, processedAt };
}

export async function listKnowledgeBases(service: KnowledgeService): Promise<Response> {
  return Response.json({ knowledgeBases: await service.listBases() });
}

export async function createKnowledgeBase(service: KnowledgeService, request: Request): Promise<Response> {
  return Response.json(await service.createBase(await readJsonBody(request, MAX_JSON_BYTES)), { status: 201 });
}

export async function uploadDocuments(service: KnowledgeService, request: Request, knowledgeBaseId: string): Promise<Response> {
  await service.getBase(knowledgeBaseId); // 404 before reading a large body
  const { files, metadata } = await readUploadForm(request);
  const documents = await service.uploadDocuments(knowledgeBaseId, files, metadata);
  return Response.json({ documents: documents.map(({ id, name, status }) => ({ id, name, status })) }, { status: 202 });
}

export async function listDocuments(service: KnowledgeService, knowledgeBaseId: string): Promise<Response> {
  return Response.json({ documents: (await service.listDocuments(knowledgeBaseId)).map(documentView) });
}

export async function listChunks(service: KnowledgeService, request: Request, knowledgeBaseId: string, documentId: string): Promise<Response> {
  const url = new URL(request.url);
  const chunks = await service.listChunks(knowledgeBaseId, documentId, { offset: Number(url.searchParams.get("offset") ?? 0) || 0, limit: Number(url.searchParams.get("limit") ?? 50) || 50 });
  return Response.json({ chunks });
}

export async function search(service: KnowledgeService, request: Request, knowledgeBaseId: string): Promise<Response> {
  const parsed = searchRequestSchema.safeParse(await readJsonBody(request, MAX_JSON_BYTES));
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: issue.path.join(".") || "body", message: issue.message }));
    throw new RequestError(400, "invalid_request", `Invalid search: ${details.map((detail) => `${detail.path} ${detail.message}`).join("; ")}`, details);
  }
  const response = await service.search({ knowledgeBaseIds: [knowledgeBaseId], ...parsed.data }, { signal: request.signal });
  return Response.json({
    results: response.results.map(({ content, score, documentId, documentName, chunkIndex, metadata }) => ({ content, score, documentId, documentName, chunkIndex, metadata })),
    totalResults: response.totalResults,
    query: response.query,
    mode: response.mode,
    usage: response.usage ?? null,
  });
}
