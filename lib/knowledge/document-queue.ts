import "server-only";
import type { Usage } from "@/contract";
import { type ClaimedJob, type IngestionQueue, type EmbeddedChunk, signBits, type FileKind } from "@/knowledge";
import { numberArrayLiteral, type SqlClient, type TransactionalSqlClient } from "./sql-client";
import { uuidV7 } from "@/lib/db";

/** Seconds before a document that failed with a passing error is tried again. */
const RETRY_DELAY_SECONDS = 30;
/** Rows per INSERT: 7 parameters each stays far below PostgreSQL's 65,535-parameter limit. */
const INSERT_BATCH = 200;
/**
 * Text per INSERT: indexing it (to_tsvector) is the statement's cost, and the embedded database
 * runs on the server's own thread, so one statement must stay short enough not to hold requests
 * (about 20-40 ms at this size on PGlite).
 */
const INSERT_BATCH_CHARS = 64 * 1024;

/** Consecutive runs of chunks within both batch limits. */
function insertBatches(chunks: EmbeddedChunk[]): EmbeddedChunk[][] {
  const batches: EmbeddedChunk[][] = [];
  let current: EmbeddedChunk[] = [];
  let chars = 0;
  for (const chunk of chunks) {
    if (current.length > 0 && (current.length >= INSERT_BATCH || chars + chunk.content.length > INSERT_BATCH_CHARS)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(chunk);
    chars += chunk.content.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Puts every document left `processing` back to `pending`, for a process that alone owns its
 * database (the embedded one): any lease found at start is a crashed predecessor's, and waiting
 * for it to expire (up to 5 minutes) would only keep the document looking busy. Keeps `attempts`,
 * so a document that crashes its process every time still ends `failed`. Returns how many.
 */
export async function releaseLeases(db: SqlClient): Promise<number> {
  return db.$executeRawUnsafe(
    `UPDATE knowledge_documents SET status = 'pending', lease_until = NULL, updated_at = now() WHERE status = 'processing'`,
  );
}

/**
 * The document table as a work queue. `claim` takes the oldest pending document, or one stuck
 * in `processing` past its lease (its worker died), in one statement with SKIP LOCKED so two
 * server processes never take the same document.
 */
export function createDocumentQueue(db: SqlClient): IngestionQueue {
  return {
    async claim(leaseMs) {
      const rows = await db.$queryRawUnsafe<Array<{ id: string; attempts: number }>>(
        `UPDATE knowledge_documents SET status = 'processing', attempts = attempts + 1, error = NULL,
           lease_until = now() + ($1::int * interval '1 millisecond'), processing_started_at = now(), updated_at = now()
         WHERE id = (
           SELECT id FROM knowledge_documents
           WHERE (status = 'pending' AND (retry_after IS NULL OR retry_after <= now()))
              OR (status = 'processing' AND lease_until < now())
           ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, attempts`,
        Math.round(leaseMs),
      );
      const row = rows[0];
      return row ? { documentId: row.id, attempts: Number(row.attempts) } : null;
    },
    async retry(job, message) {
      await db.$executeRawUnsafe(
        `UPDATE knowledge_documents SET status = 'pending', error = $3, lease_until = NULL,
           retry_after = now() + ($4::int * interval '1 second'), updated_at = now()
         WHERE id = $1 AND attempts = $2 AND status = 'processing'`,
        job.documentId,
        job.attempts,
        `${message} (will retry)`,
        RETRY_DELAY_SECONDS * job.attempts,
      );
    },
    async fail(job, message) {
      await db.$executeRawUnsafe(
        `UPDATE knowledge_documents SET status = 'failed', error = $3, lease_until = NULL, updated_at = now()
         WHERE id = $1 AND attempts = $2 AND status = 'processing'`,
        job.documentId,
        job.attempts,
        message,
      );
    },
  };
}

export interface ClaimedDocumentFile {
  /** The base's workspace: its provider settings embed the document. */
  workspaceId: string;
  knowledgeBaseId: string;
  name: string;
  kind: FileKind;
  bytes: Uint8Array;
  metadata: Record<string, unknown>;
  embeddingModel: string;
  chunkSize: number;
  chunkOverlap: number;
}

export async function loadDocumentFile(db: SqlClient, documentId: string): Promise<ClaimedDocumentFile | null> {
  const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT b.workspace_id AS "workspaceId", d.knowledge_base_id AS "knowledgeBaseId", d.name, d.kind, d.content, d.metadata,
       b.embedding_model AS "embeddingModel", b.chunk_size AS "chunkSize", b.chunk_overlap AS "chunkOverlap"
     FROM knowledge_documents d JOIN knowledge_bases b ON b.id = d.knowledge_base_id WHERE d.id = $1`,
    documentId,
  );
  const row = rows[0];
  if (!row) return null;
  const content = row.content as Uint8Array;
  return {
    workspaceId: String(row.workspaceId),
    knowledgeBaseId: String(row.knowledgeBaseId),
    name: String(row.name),
    kind: row.kind as FileKind,
    bytes: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
    metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>,
    embeddingModel: String(row.embeddingModel),
    chunkSize: Number(row.chunkSize),
    chunkOverlap: Number(row.chunkOverlap),
  };
}

function normalize(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm > 0 ? vector.map((value) => value / norm) : vector;
}

async function insertChunks(
  tx: SqlClient,
  file: ClaimedDocumentFile,
  documentId: string,
  chunks: EmbeddedChunk[],
): Promise<void> {
  for (const batch of insertBatches(chunks)) {
    const values: unknown[] = [file.knowledgeBaseId, documentId, file.name];
    const rows = batch.map((chunk) => {
      const embedding = normalize(chunk.embedding);
      values.push(
        uuidV7(),
        chunk.index,
        chunk.content,
        chunk.tokenCount,
        JSON.stringify(chunk.metadata),
        numberArrayLiteral(embedding),
        signBits(embedding),
      );
      const p = values.length - 6;
      // The document name and headings weigh more (A) than the body (D) in keyword ranking.
      return `($${p}, $1, $2, $${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}::jsonb, $${p + 5}::float8[], $${p + 6}::varbit,
        setweight(to_tsvector('english', $3 || ' ' || coalesce(array_to_string(ARRAY(SELECT jsonb_array_elements_text($${p + 4}::jsonb -> 'headings')), ' '), '')), 'A')
          || to_tsvector('english', $${p + 2}))`;
    });
    await tx.$executeRawUnsafe(
      `INSERT INTO knowledge_chunks (id, knowledge_base_id, document_id, chunk_index, content, token_count, metadata, embedding, sign_bits, search_vector)
       VALUES ${rows.join(",\n")}`,
      ...values,
    );
  }
}

/**
 * Stores a processed document's chunks and marks it ready, in one transaction, only if the
 * claim is still ours (same attempt, still processing): a worker that lost its lease to another
 * one discards its work instead of writing twice.
 */
export async function completeDocument(
  db: TransactionalSqlClient,
  job: ClaimedJob,
  file: ClaimedDocumentFile,
  result: { chunks: EmbeddedChunk[]; usage: Usage; metadata: Record<string, unknown> },
): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const owned = await tx.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM knowledge_documents WHERE id = $1 AND attempts = $2 AND status = 'processing' FOR UPDATE`,
      job.documentId,
      job.attempts,
    );
    if (owned.length === 0) return false;
    await tx.$executeRawUnsafe(`DELETE FROM knowledge_chunks WHERE document_id = $1`, job.documentId);
    await insertChunks(tx, file, job.documentId, result.chunks);
    const dimensions = result.chunks[0]?.embedding.length;
    if (dimensions) {
      await tx.$executeRawUnsafe(
        `UPDATE knowledge_bases SET embedding_dimensions = $2, updated_at = now() WHERE id = $1 AND embedding_dimensions IS NULL`,
        file.knowledgeBaseId,
        dimensions,
      );
    }
    const tokens = result.chunks.reduce((sum, chunk) => sum + chunk.tokenCount, 0);
    await tx.$executeRawUnsafe(
      `UPDATE knowledge_documents SET status = 'ready', error = NULL, lease_until = NULL, retry_after = NULL, processed_at = now(), updated_at = now(),
         chunk_count = $2, token_count = $3, embedding_tokens = $4, embedding_cost = $5::numeric, embedding_unpriced = $6, embedding_estimated = $7,
         metadata = metadata || $8::jsonb
       WHERE id = $1`,
      job.documentId,
      result.chunks.length,
      tokens,
      result.usage.tokens.prompt,
      result.usage.cost === null ? null : String(result.usage.cost.total),
      Boolean(result.usage.unpriced),
      Boolean(result.usage.estimated),
      JSON.stringify({ parsed: result.metadata }),
    );
    return true;
  });
}
