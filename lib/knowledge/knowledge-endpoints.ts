import "server-only";
import { z } from "zod";
import { createKnowledgeBaseRequestSchema, searchRequestSchema } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import type { KnowledgeService } from "./knowledge-service";
import type { DocumentRecord } from "./knowledge-store";
import { uploadDocumentsEndpoint } from "./upload-endpoint";

const MAX_JSON_BYTES = 256 * 1024;

function documentView(document: DocumentRecord) {
  const {
    id,
    name,
    status,
    chunkCount,
    error,
    kind,
    sizeBytes,
    tokenCount,
    attempts,
    metadata,
    embedding,
    createdAt,
    updatedAt,
    processedAt,
  } = document;
  return {
    id,
    name,
    status,
    chunkCount,
    error,
    kind,
    sizeBytes,
    tokenCount,
    attempts,
    metadata,
    embedding,
    createdAt,
    updatedAt,
    processedAt,
  };
}

const basePages = listPaging("knowledge-bases", timeAndIdPosition);
const documentPages = listPaging("documents", timeAndIdPosition);
const chunkPages = listPaging("chunks", z.tuple([z.number().int().min(0)]).readonly());

/** Chunks were paged by `?offset=` before the cursor: a client still sending one past the start is told, not silently given the first page again. */
function refuseOffset(request: Request): void {
  const offset = new URL(request.url).searchParams.get("offset");
  if (offset !== null && offset !== "0") {
    throw new RequestError(
      "invalid_request",
      "offset is no longer read: pass the nextCursor of the page before as cursor.",
      [{ path: "offset", message: "use cursor instead" }],
    );
  }
}

/**
 * The knowledge base endpoints of docs/CONTRACT.md section 5, over a service given per call. Each
 * acts in the calling member's workspace: a base of another workspace answers 404 like an unknown id.
 */
export function knowledgeEndpoints(service: () => KnowledgeService) {
  return {
    listBases: endpoint("listKnowledgeBases", async (request, _params, { workspace }) =>
      Response.json(
        basePages.answer("knowledgeBases", await service().listBases(workspace.id, basePages.read(request))),
      ),
    ),
    createBase: endpoint("createKnowledgeBase", async (request, _params, { workspace }) => {
      const body = await readJsonRequest(request, createKnowledgeBaseRequestSchema, {
        subject: "The knowledge base",
        maxBytes: MAX_JSON_BYTES,
      });
      return Response.json(await service().createBase(workspace.id, body), { status: 201 });
    }),
    getBase: endpoint("getKnowledgeBase", async (_request, { id }, { workspace }) =>
      Response.json(await service().getBase(workspace.id, id)),
    ),
    deleteBase: endpoint("deleteKnowledgeBase", async (_request, { id }, { workspace }) => {
      await service().deleteBase(workspace.id, id);
      return new Response(null, { status: 204 });
    }),
    listDocuments: endpoint("listDocuments", async (request, { id }, { workspace }) => {
      const page = await service().listDocuments(workspace.id, id, documentPages.read(request));
      return Response.json(documentPages.answer("documents", { items: page.items.map(documentView), next: page.next }));
    }),
    uploadDocuments: uploadDocumentsEndpoint(service),
    getDocument: endpoint("getDocument", async (_request, { id, documentId }, { workspace }) =>
      Response.json(await service().getDocument(workspace.id, id, documentId)),
    ),
    deleteDocument: endpoint("deleteDocument", async (_request, { id, documentId }, { workspace }) => {
      await service().deleteDocument(workspace.id, id, documentId);
      return new Response(null, { status: 204 });
    }),
    listChunks: endpoint("listChunks", async (request, { id, documentId }, { workspace }) => {
      refuseOffset(request);
      return Response.json(
        chunkPages.answer("chunks", await service().listChunks(workspace.id, id, documentId, chunkPages.read(request))),
      );
    }),
    // A POST only because the query is a body: it changes nothing, so viewers may search.
    search: endpoint("searchKnowledgeBase", async (request, { id }, { workspace }) => {
      const body = await readJsonRequest(request, searchRequestSchema, {
        subject: "The search",
        maxBytes: MAX_JSON_BYTES,
      });
      const answer = await service().search(
        workspace.id,
        { knowledgeBaseIds: [id], ...body },
        { signal: request.signal },
      );
      return Response.json({
        results: answer.results.map(({ content, score, documentId, documentName, chunkIndex, metadata }) => ({
          content,
          score,
          documentId,
          documentName,
          chunkIndex,
          metadata,
        })),
        totalResults: answer.totalResults,
        query: answer.query,
        mode: answer.mode,
        usage: answer.usage ?? null,
      });
    }),
  };
}

export type KnowledgeEndpoints = ReturnType<typeof knowledgeEndpoints>;
