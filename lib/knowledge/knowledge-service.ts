import "server-only";
import { ProviderCallError, TrellisError } from "@/executor";
import type { ProviderEnvInput } from "@/providers";
import {
  createEmbedder,
  type Embedder,
  DocumentParseError,
  IngestionWorker,
  type IngestionWorkerOptions,
  IngestThreads,
  type IngestThreadOptions,
  type SearchRequest,
  type SearchResponse,
} from "@/knowledge";
import type { KeysetPage, TimeAndId } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { completeDocument, createDocumentQueue, loadDocumentFile, releaseLeases } from "./document-queue";
import { createKnowledgeBaseRequestSchema, zodIssues, type CreateKnowledgeBaseRequest } from "@/contract";
import { describeIssues } from "@/lib/http/issues";
import * as store from "./knowledge-store";
import { searchKnowledge } from "./knowledge-search";
import { detectPgvector, ensureHnswIndex, syncVectorColumn, type VectorCapability } from "./pgvector";
import { ingestTimeBudgetMs } from "./knowledge-settings";
import type { UploadedFile } from "./read-upload";
import { findUpload, storeUpload, type UploadSqlClient } from "./upload-store";

export interface KnowledgeServiceOptions {
  /** A Prisma client (PostgreSQL or embedded PGlite). */
  db: UploadSqlClient;
  /**
   * A workspace's keys for embedding providers (docs/CONTRACT.md section 4): its stored secrets,
   * then the process's provider variables; base URLs are the operator's alone. Called for every
   * embedding, so a key changed in the workspace applies to the next document or search without a restart.
   */
  envFor(workspaceId: string): Promise<ProviderEnvInput>;
  /** The guarded fetch embedders call through (createProviderFetch); default: one per embedder over the operator's servers. */
  fetch?: typeof globalThis.fetch;
  worker?: Pick<IngestionWorkerOptions, "leaseMs" | "pollMs" | "maxAttempts" | "concurrency">;
  /** The threads that parse and chunk; the time budget defaults to TRELLIS_INGEST_TIME_BUDGET_MS. */
  ingestion?: IngestThreadOptions;
  log?: (message: string) => void;
  /**
   * The embedded database's folder (DATA_DIR/pglite): uploads are stored there, so one that would
   * leave its disk short of the reserve is refused with 507 before anything is written, and every
   * document left `processing` is released at start (only this process can own that database, so
   * every lease is a crashed predecessor's). Undefined on PostgreSQL.
   */
  embeddedDatabaseDir?: string;
  /**
   * Release every ingestion lease at start (the embedded database: only one process can own it, so
   * a lease found at start is a crashed predecessor's). Never with a shared PostgreSQL, where the
   * lease may be another live process's.
   */
  releaseLeasesAtStart?: boolean;
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;

function invalid(path: string, message: string): RequestError {
  return new RequestError("invalid_request", `${path} ${message}`, [{ path, message }]);
}

export function createKnowledgeService(options: KnowledgeServiceOptions) {
  const { db } = options;
  let capability: VectorCapability = { pgvector: false, reason: "not detected yet" };

  /**
   * A fresh embedder per use, never cached: its key and base URL are the workspace's as they are
   * now (a cache by model id would embed one workspace's documents with another's key, and keep a
   * replaced key). Building one only reads settings and wraps the AI SDK model; no connection.
   */
  const embedderFor = async (workspaceId: string, modelId: string): Promise<Embedder> =>
    createEmbedder(modelId, { env: await options.envFor(workspaceId), fetch: options.fetch });

  const timeBudgetMs = options.ingestion?.timeBudgetMs ?? ingestTimeBudgetMs((name) => process.env[name]);
  const threads = new IngestThreads({ ...options.ingestion, timeBudgetMs });
  const worker = new IngestionWorker({
    ...options.worker,
    // A claim outlives the budget, so no other process takes a document over while it is still within it.
    leaseMs: Math.max(options.worker?.leaseMs ?? 5 * 60_000, timeBudgetMs + 60_000),
    queue: createDocumentQueue(db),
    log: options.log,
    async process(job, signal) {
      const file = await loadDocumentFile(db, job.documentId);
      if (!file) return; // deleted while queued
      const embedder = await embedderFor(file.workspaceId, file.embeddingModel);
      const result = await threads.process(
        file,
        { chunkSize: file.chunkSize, chunkOverlap: file.chunkOverlap },
        embedder,
        signal,
      );
      if (result.chunks.length === 0) throw new DocumentParseError("no text was found in the file");
      const stored = await completeDocument(db, job, file, result);
      if (stored && capability.pgvector) {
        await syncVectorColumn(db, job.documentId);
        await ensureHnswIndex(db, result.chunks[0]?.embedding.length ?? 0);
      }
    },
  });

  const upload = async (
    workspaceId: string,
    knowledgeBaseId: string,
    files: UploadedFile[],
    metadata: Record<string, unknown> = {},
    idempotencyKey?: string,
  ) => {
    await store.getBase(db, workspaceId, knowledgeBaseId);
    const stored = await storeUpload(
      db,
      workspaceId,
      knowledgeBaseId,
      files,
      metadata,
      idempotencyKey,
      options.embeddedDatabaseDir,
    );
    if (!stored.replayed) worker.wake();
    return stored;
  };

  return {
    /** Detects pgvector and starts background processing (resuming anything left unfinished). */
    async start(): Promise<VectorCapability> {
      capability = await detectPgvector(db);
      if (options.releaseLeasesAtStart) {
        const released = await releaseLeases(db);
        if (released > 0)
          options.log?.(`knowledge: ${released} document(s) left processing by a stopped server are queued again`);
      }
      worker.start();
      return capability;
    },
    /** Uses a capability detected by another instance (see knowledge-runtime.ts) without starting a worker timer. */
    adoptCapability(detected: VectorCapability): void {
      capability = detected;
    },
    async stop() {
      await worker.stop();
      await threads.close();
    },
    /** Processes every waiting document now and resolves when none is left (tests, scripts). */
    drain: () => worker.drain(),
    vectorCapability: () => capability,

    /** Every method below acts in one workspace and never reaches another's bases or documents. */
    async createBase(workspaceId: string, input: CreateKnowledgeBaseRequest | unknown) {
      const parsed = createKnowledgeBaseRequestSchema.safeParse(input);
      if (!parsed.success) {
        const details = zodIssues(parsed.error);
        throw new RequestError("invalid_request", describeIssues("The knowledge base", details), details);
      }
      // Refuses a model the workspace cannot embed with (unknown provider, no key) before storing
      // anything; the settings are read outside the try so a failure to read them is not blamed on the model.
      const env = await options.envFor(workspaceId);
      try {
        createEmbedder(parsed.data.embeddingModel, { env, fetch: options.fetch });
      } catch (error) {
        if (error instanceof ProviderCallError || error instanceof TrellisError)
          throw invalid("embeddingModel", error.message);
        throw error;
      }
      return store.createBase(db, workspaceId, parsed.data);
    },
    listBases: (workspaceId: string, page?: KeysetPage<TimeAndId>) => store.listBases(db, workspaceId, page),
    getBase: (workspaceId: string, id: string) => store.getBase(db, workspaceId, id),
    deleteBase: (workspaceId: string, id: string) => store.deleteBase(db, workspaceId, id),

    /**
     * Stores an upload's files, all or none (a bad file refuses the whole upload with a message
     * naming it), and queues them. With an idempotency key, a repeat within 24 hours answers the
     * first upload's documents instead of storing the files again (upload-store.ts).
     */
    storeUpload: upload,
    /** The documents of an earlier upload with this key, or null. */
    findUpload: (workspaceId: string, knowledgeBaseId: string, idempotencyKey: string) =>
      findUpload(db, workspaceId, knowledgeBaseId, idempotencyKey),
    async uploadDocuments(
      workspaceId: string,
      knowledgeBaseId: string,
      files: UploadedFile[],
      metadata: Record<string, unknown> = {},
    ) {
      return (await upload(workspaceId, knowledgeBaseId, files, metadata)).documents;
    },
    async listDocuments(workspaceId: string, knowledgeBaseId: string, page?: KeysetPage<TimeAndId>) {
      await store.getBase(db, workspaceId, knowledgeBaseId);
      return store.listDocuments(db, workspaceId, knowledgeBaseId, page);
    },
    getDocument: (workspaceId: string, knowledgeBaseId: string, documentId: string) =>
      store.getDocument(db, workspaceId, knowledgeBaseId, documentId),
    deleteDocument: (workspaceId: string, knowledgeBaseId: string, documentId: string) =>
      store.deleteDocument(db, workspaceId, knowledgeBaseId, documentId),
    async listChunks(
      workspaceId: string,
      knowledgeBaseId: string,
      documentId: string,
      page?: KeysetPage<store.ChunkPosition>,
    ) {
      await store.getDocument(db, workspaceId, knowledgeBaseId, documentId);
      return store.listChunks(db, workspaceId, knowledgeBaseId, documentId, page);
    },
    search(
      workspaceId: string,
      request: SearchRequest,
      callOptions: { signal?: AbortSignal } = {},
    ): Promise<SearchResponse> {
      return searchKnowledge(
        { db, embedderFor, usePgvector: () => capability.pgvector },
        workspaceId,
        request,
        callOptions.signal,
      );
    },
  };
}
