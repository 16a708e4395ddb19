import "server-only";
import { createKnowledgeBaseRequestSchema, searchRequestSchema } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { KnowledgeService } from "./knowledge-service";
import type { DocumentRecord } from "./knowledge-store";
import { readUploadForm } from "./read-upload";

const MAX_JSON_BYTES = 256 * 1024;

type BaseParams = { id: string };
type DocumentParams = { id: string; documentId: string };

function documentView(document: DocumentRecord) {
  const { id, name, status, chunkCount, error, kind, sizeBytes, tokenCount, attempts, metadata, embedding, createdAt, updatedAt, processedAt } = document;
  return { id, name, status, chunkCount, error, kind, sizeBytes, tokenCount, attempts, metadata, embedding, createdAt, updatedAt, processedAt };
}

/** `?offset=&limit=` of a chunk listing; anything unreadable falls back to the first page. */
function chunkPage(request: Request) {
  const query = new URL(request.url).searchParams;
  return { offset: Number(query.get("offset") ?? 0) || 0, limit: Number(query.get("limit") ?? 50) || 50 };
}

/** The knowledge base endpoints of docs/CONTRACT.md section 5, over a service given per call. */
export function knowledgeEndpoints(service: () => KnowledgeService) {
  return {
    listBases: endpoint(async () => Response.json({ knowledgeBases: await service().listBases() })),
    createBase: endpoint(async (request) => {
      const body = await readJsonRequest(request, createKnowledgeBaseRequestSchema, { subject: "The knowledge base", maxBytes: MAX_JSON_BYTES });
      return Response.json(await service().createBase(body), { status: 201 });
    }),
    getBase: endpoint<BaseParams>(async (_request, { id }) => Response.json(await service().getBase(id))),
    deleteBase: endpoint<BaseParams>(async (_request, { id }) => {
      await service().deleteBase(id);
      return new Response(null, { status: 204 });
    }),
    listDocuments: endpoint<BaseParams>(async (_request, { id }) => Response.json({ documents: (await service().listDocuments(id)).map(documentView) })),
    uploadDocuments: endpoint<BaseParams>(
      async (request, { id }) => {
        await service().getBase(id); // 404 before reading a large body
        const { files, metadata } = await readUploadForm(request);
        const documents = await service().uploadDocuments(id, files, metadata);
        return Response.json({ documents: documents.map(({ id, name, status }) => ({ id, name, status })) }, { status: 202 });
      },
      { body: "multipart" },
    ),
    getDocument: endpoint<DocumentParams>(async (_request, { id, documentId }) => Response.json(await service().getDocument(id, documentId))),
    deleteDocument: endpoint<DocumentParams>(async (_request, { id, documentId }) => {
      await service().deleteDocument(id, documentId);
      return new Response(null, { status: 204 });
    }),
    listChunks: endpoint<DocumentParams>(async (request, { id, documentId }) =>
      Response.json({ chunks: await service().listChunks(id, documentId, chunkPage(request)) }),
    ),
    search: endpoint<BaseParams>(async (request, { id }) => {
      const body = await readJsonRequest(request, searchRequestSchema, { subject: "The search", maxBytes: MAX_JSON_BYTES });
      const answer = await service().search({ knowledgeBaseIds: [id], ...body }, { signal: request.signal });
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
