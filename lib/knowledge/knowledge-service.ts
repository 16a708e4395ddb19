import "server-only";
import { ProviderCallError, TrellisError } from "@/executor";
import type { EnvReader } from "@/providers";
import {
  createEmbedder,
  type Embedder,
  DocumentParseError,
  UnsupportedFileError,
  IngestionWorker,
  type IngestionWorkerOptions,
  processDocument,
  detectFileKind,
  type SearchRequest,
  type SearchResponse,
  type FileKind,
} from "@/knowledge";
import { RequestError } from "@/lib/http/errors";
import { completeDocument, createDocumentQueue, loadDocumentFile } from "./document-queue";
import { createKnowledgeBaseRequestSchema, zodIssues, type CreateKnowledgeBaseRequest } from "@/contract";
import { describeIssues } from "@/lib/http/issues";
import * as store from "./knowledge-store";
import { searchKnowledge } from "./knowledge-search";
import { detectPgvector, ensureHnswIndex, syncVectorColumn, type VectorCapability } from "./pgvector";
import type { UploadedFile } from "./read-upload";
import type { TransactionalSqlClient } from "./sql-client";

export interface KnowledgeServiceOptions {
  /** A Prisma client (PostgreSQL or embedded PGlite). */
  db: TransactionalSqlClient;
  /** Keys and base URLs for embedding providers (docs/CONTRACT.md section 4). */
  env: EnvReader;
  fetch?: typeof globalThis.fetch;
  worker?: Pick<IngestionWorkerOptions, "leaseMs" | "pollMs" | "maxAttempts" | "concurrency">;
  log?: (message: string) => void;
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;

function invalid(path: string, message: string): RequestError {
  return new RequestError("invalid_request", `${path} ${message}`, [{ path, message }]);
}

export function createKnowledgeService(options: KnowledgeServiceOptions) {
  const { db } = options;
  const embedders = new Map<string, Embedder>();
  let capability: VectorCapability = { pgvector: false, reason: "not detected yet" };

  const embedderFor = (modelId: string): Embedder => {
    let embedder = embedders.get(modelId);
    if (!embedder) {
      embedder = createEmbedder(modelId, { env: options.env, fetch: options.fetch });
      embedders.set(modelId, embedder);
    }
    return embedder;
  };

  const worker = new IngestionWorker({
    ...options.worker,
    queue: createDocumentQueue(db),
    log: options.log,
    async process(job, signal) {
      const file = await loadDocumentFile(db, job.documentId);
      if (!file) return; // deleted while queued
      const result = await processDocument(file, { chunkSize: file.chunkSize, chunkOverlap: file.chunkOverlap }, embedderFor(file.embeddingModel), signal);
      if (result.chunks.length === 0) throw new DocumentParseError("no text was found in the file");
      const stored = await completeDocument(db, job, file, result);
      if (stored && capability.pgvector) {
        await syncVectorColumn(db, job.documentId);
        await ensureHnswIndex(db, result.chunks[0]?.embedding.length ?? 0);
      }
    },
  });

  return {
    /** Detects pgvector and starts background processing (resuming anything left unfinished). */
    async start(): Promise<VectorCapability> {
      capability = await detectPgvector(db);
      worker.start();
      return capability;
    },
    /** Uses a capability detected by another instance (see knowledge-runtime.ts) without starting a worker timer. */
    adoptCapability(detected: VectorCapability): void {
      capability = detected;
    },
    stop: () => worker.stop(),
    /** Processes every waiting document now and resolves when none is left (tests, scripts). */
    drain: () => worker.drain(),
    vectorCapability: () => capability,

    async createBase(input: CreateKnowledgeBaseRequest | unknown) {
      const parsed = createKnowledgeBaseRequestSchema.safeParse(input);
      if (!parsed.success) {
        const details = zodIssues(parsed.error);
        throw new RequestError("invalid_request", describeIssues("The knowledge base", details), details);
      }
      try {
        embedderFor(parsed.data.embeddingModel);
      } catch (error) {
        if (error instanceof ProviderCallError || error instanceof TrellisError) throw invalid("embeddingModel", error.message);
        throw error;
      }
      return store.createBase(db, parsed.data);
    },
    listBases: () => store.listBases(db),
    getBase: (id: string) => store.getBase(db, id),
    deleteBase: (id: string) => store.deleteBase(db, id),

    /**
     * Checks every file (extension and content) before storing any, then queues them all. A bad
     * file refuses the whole upload with a message naming it, so nothing is half-uploaded.
     */
    async uploadDocuments(knowledgeBaseId: string, files: UploadedFile[], metadata: Record<string, unknown> = {}) {
      await store.getBase(db, knowledgeBaseId);
      const checked: Array<UploadedFile & { kind: FileKind }> = files.map((file) => {
        try {
          return { ...file, kind: detectFileKind(file.name, file.bytes) };
        } catch (error) {
          if (error instanceof UnsupportedFileError) throw new RequestError(error.code, error.message, [{ path: file.name, message: error.message }]);
          throw error;
        }
      });
      const documents = [];
      for (const file of checked)
        documents.push(await store.insertDocument(db, { knowledgeBaseId, name: file.name, kind: file.kind, bytes: file.bytes, metadata }));
      worker.wake();
      return documents;
    },
    listDocuments: async (knowledgeBaseId: string) => {
      await store.getBase(db, knowledgeBaseId);
      return store.listDocuments(db, knowledgeBaseId);
    },
    getDocument: (knowledgeBaseId: string, documentId: string) => store.getDocument(db, knowledgeBaseId, documentId),
    deleteDocument: (knowledgeBaseId: string, documentId: string) => store.deleteDocument(db, knowledgeBaseId, documentId),
    async listChunks(knowledgeBaseId: string, documentId: string, page: { offset?: number; limit?: number } = {}) {
      await store.getDocument(db, knowledgeBaseId, documentId);
      return store.listChunks(db, documentId, { offset: Math.max(0, page.offset ?? 0), limit: Math.min(200, Math.max(1, page.limit ?? 50)) });
    },
    search(request: SearchRequest, callOptions: { signal?: AbortSignal } = {}): Promise<SearchResponse> {
      return searchKnowledge({ db, embedderFor, usePgvector: () => capability.pgvector }, request, callOptions.signal);
    },
  };
}
