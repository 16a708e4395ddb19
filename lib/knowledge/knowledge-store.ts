import "server-only";
import { createHash } from "node:crypto";
import { TrellisError } from "@/executor";
import type { FileKind } from "@/knowledge";
import type { ChunkView, DocumentStatus, KnowledgeBaseRecord, KnowledgeBaseSummary, KnowledgeDocument } from "@/contract";
import { textArrayLiteral, type SqlClient } from "./sql-client";
import { uuidV7 } from "./uuid-v7";

/** Knowledge bases and documents: the plain rows behind the REST API. */

/** A document's row: the API's view plus where it belongs. */
export interface DocumentRecord extends Omit<KnowledgeDocument, "kind"> {
  knowledgeBaseId: string;
  kind: FileKind;
}

export class NotFoundError extends TrellisError {
  constructor(message: string) {
    super("not_found", message);
  }
}

const BASE_COLUMNS = `id, name, description, embedding_model AS "embeddingModel", embedding_dimensions AS "embeddingDimensions",
  chunk_size AS "chunkSize", chunk_overlap AS "chunkOverlap", created_at AS "createdAt", updated_at AS "updatedAt"`;

const DOCUMENT_COLUMNS = `id, knowledge_base_id AS "knowledgeBaseId", name, kind, size_bytes AS "sizeBytes", status, error, attempts,
  chunk_count AS "chunkCount", token_count AS "tokenCount", metadata, embedding_tokens AS "embeddingTokens",
  embedding_cost::float8 AS "embeddingCost", embedding_unpriced AS "embeddingUnpriced", embedding_estimated AS "embeddingEstimated",
  created_at AS "createdAt", updated_at AS "updatedAt", processed_at AS "processedAt"`;

type Row = Record<string, unknown>;

const iso = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));
const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));

function toBase(row: Row): KnowledgeBaseRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    description: String(row.description ?? ""),
    embeddingModel: String(row.embeddingModel),
    embeddingDimensions: row.embeddingDimensions === null ? null : Number(row.embeddingDimensions),
    chunkSize: Number(row.chunkSize),
    chunkOverlap: Number(row.chunkOverlap),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function toDocument(row: Row): DocumentRecord {
  return {
    id: String(row.id),
    knowledgeBaseId: String(row.knowledgeBaseId),
    name: String(row.name),
    kind: row.kind as FileKind,
    sizeBytes: Number(row.sizeBytes),
    status: row.status as DocumentStatus,
    error: row.error === null ? null : String(row.error),
    attempts: Number(row.attempts),
    chunkCount: Number(row.chunkCount),
    tokenCount: Number(row.tokenCount),
    metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>,
    embedding: {
      tokens: Number(row.embeddingTokens),
      cost: row.embeddingCost === null ? null : Number(row.embeddingCost),
      unpriced: Boolean(row.embeddingUnpriced),
      estimated: Boolean(row.embeddingEstimated),
    },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    processedAt: isoOrNull(row.processedAt),
  };
}

export async function createBase(
  db: SqlClient,
  input: { name: string; description?: string; embeddingModel: string; chunkSize: number; chunkOverlap: number },
): Promise<KnowledgeBaseRecord> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `INSERT INTO knowledge_bases (id, name, description, embedding_model, chunk_size, chunk_overlap, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now()) RETURNING ${BASE_COLUMNS}`,
    uuidV7(),
    input.name,
    input.description ?? "",
    input.embeddingModel,
    input.chunkSize,
    input.chunkOverlap,
  );
  return toBase(rows[0]!);
}

export async function listBases(db: SqlClient): Promise<KnowledgeBaseSummary[]> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${BASE_COLUMNS}, coalesce(counts.documents, 0)::int AS "documentCount", coalesce(counts.chunks, 0)::int AS "chunkCount"
     FROM knowledge_bases
     LEFT JOIN (SELECT knowledge_base_id, count(*) AS documents, sum(chunk_count) AS chunks FROM knowledge_documents GROUP BY knowledge_base_id) counts
       ON counts.knowledge_base_id = knowledge_bases.id
     ORDER BY created_at DESC`,
  );
  return rows.map((row) => ({ ...toBase(row), documentCount: Number(row.documentCount), chunkCount: Number(row.chunkCount) }));
}

export async function findBases(db: SqlClient, ids: readonly string[]): Promise<KnowledgeBaseRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRawUnsafe<Row[]>(`SELECT ${BASE_COLUMNS} FROM knowledge_bases WHERE id = ANY($1::text[])`, textArrayLiteral(ids));
  return rows.map(toBase);
}

export async function getBase(db: SqlClient, id: string): Promise<KnowledgeBaseRecord> {
  const [base] = await findBases(db, [id]);
  if (!base) throw new NotFoundError(`Knowledge base "${id}" does not exist`);
  return base;
}

export async function deleteBase(db: SqlClient, id: string): Promise<void> {
  const count = await db.$executeRawUnsafe(`DELETE FROM knowledge_bases WHERE id = $1`, id);
  if (count === 0) throw new NotFoundError(`Knowledge base "${id}" does not exist`);
}

export async function insertDocument(
  db: SqlClient,
  input: { knowledgeBaseId: string; name: string; kind: FileKind; bytes: Uint8Array; metadata: Record<string, unknown> },
): Promise<DocumentRecord> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `INSERT INTO knowledge_documents (id, knowledge_base_id, name, kind, size_bytes, content, content_hash, metadata, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, 'pending', now(), now()) RETURNING ${DOCUMENT_COLUMNS}`,
    uuidV7(),
    input.knowledgeBaseId,
    input.name,
    input.kind,
    input.bytes.byteLength,
    Buffer.from(input.bytes),
    createHash("sha256").update(input.bytes).digest("hex"),
    JSON.stringify(input.metadata),
  );
  return toDocument(rows[0]!);
}

export async function listDocuments(db: SqlClient, knowledgeBaseId: string): Promise<DocumentRecord[]> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${DOCUMENT_COLUMNS} FROM knowledge_documents WHERE knowledge_base_id = $1 ORDER BY created_at DESC, id DESC`,
    knowledgeBaseId,
  );
  return rows.map(toDocument);
}

export async function getDocument(db: SqlClient, knowledgeBaseId: string, documentId: string): Promise<DocumentRecord> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${DOCUMENT_COLUMNS} FROM knowledge_documents WHERE id = $1 AND knowledge_base_id = $2`,
    documentId,
    knowledgeBaseId,
  );
  if (!rows[0]) throw new NotFoundError(`Document "${documentId}" does not exist in knowledge base "${knowledgeBaseId}"`);
  return toDocument(rows[0]);
}

export async function deleteDocument(db: SqlClient, knowledgeBaseId: string, documentId: string): Promise<void> {
  const count = await db.$executeRawUnsafe(`DELETE FROM knowledge_documents WHERE id = $1 AND knowledge_base_id = $2`, documentId, knowledgeBaseId);
  if (count === 0) throw new NotFoundError(`Document "${documentId}" does not exist in knowledge base "${knowledgeBaseId}"`);
}

export async function listChunks(db: SqlClient, documentId: string, options: { offset: number; limit: number }): Promise<ChunkView[]> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT chunk_index AS "chunkIndex", content, token_count AS "tokenCount", metadata FROM knowledge_chunks
     WHERE document_id = $1 ORDER BY chunk_index OFFSET $2 LIMIT $3`,
    documentId,
    options.offset,
    options.limit,
  );
  return rows.map((row) => ({
    chunkIndex: Number(row.chunkIndex),
    content: String(row.content),
    tokenCount: Number(row.tokenCount),
    metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>,
  }));
}
