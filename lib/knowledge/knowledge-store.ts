import "server-only";
import { createHash } from "node:crypto";
import { TrellisError } from "@/executor";
import type { FileKind } from "@/knowledge";
import {
  PAGE_LIMIT_DEFAULT,
  type ChunkView,
  type DocumentStatus,
  type KnowledgeBaseRecord,
  type KnowledgeBaseSummary,
  type KnowledgeDocument,
} from "@/contract";
import { keysetResult, timeAndIdOf, type KeysetPage, type KeysetResult, type TimeAndId } from "@/lib/db";
import { textArrayLiteral, type SqlClient } from "./sql-client";
import { uuidV7 } from "@/lib/db";

/**
 * Knowledge bases and documents: the plain rows behind the REST API. Every function takes the
 * workspace it acts in and only ever reaches that workspace's rows.
 */

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

/** A base's not-found error: the same for a missing id and one of another workspace, so a caller learns nothing of other workspaces. */
const baseNotFound = (id: string) => new NotFoundError(`Knowledge base "${id}" does not exist`);
const documentNotFound = (knowledgeBaseId: string, documentId: string) =>
  new NotFoundError(`Document "${documentId}" does not exist in knowledge base "${knowledgeBaseId}"`);

/** Limits document rows to those of one base of one workspace; $1 is the workspace, $2 the base. */
const DOCUMENT_IN_WORKSPACE = `knowledge_base_id = $2 AND EXISTS (SELECT 1 FROM knowledge_bases b WHERE b.id = $2 AND b.workspace_id = $1)`;

export async function createBase(
  db: SqlClient,
  workspaceId: string,
  input: { name: string; description?: string; embeddingModel: string; chunkSize: number; chunkOverlap: number },
): Promise<KnowledgeBaseRecord> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `INSERT INTO knowledge_bases (id, workspace_id, name, description, embedding_model, chunk_size, chunk_overlap, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now()) RETURNING ${BASE_COLUMNS}`,
    uuidV7(),
    workspaceId,
    input.name,
    input.description ?? "",
    input.embeddingModel,
    input.chunkSize,
    input.chunkOverlap,
  );
  return toBase(rows[0]!);
}

/** Where a page of a document's chunks ends: the last chunk's index. */
export type ChunkPosition = readonly [chunkIndex: number];

const FIRST_PAGE = { limit: PAGE_LIMIT_DEFAULT };

/** `(created_at, id) < (...)` in SQL, its parameters numbered from `first`; nothing on the first page. */
function olderThan(position: TimeAndId | undefined, first: number): { sql: string; values: unknown[] } {
  if (!position) return { sql: "", values: [] };
  return { sql: `AND (created_at, id) < ($${first}::timestamptz, $${first + 1}::text)`, values: [...position] };
}

/** A page of the workspace's bases, newest first, each with its counts (counted for this page's bases only). */
export async function listBases(
  db: SqlClient,
  workspaceId: string,
  page: KeysetPage<TimeAndId> = FIRST_PAGE,
): Promise<KeysetResult<KnowledgeBaseSummary, TimeAndId>> {
  const after = olderThan(page.after, 2);
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${BASE_COLUMNS}, coalesce(counts.documents, 0)::int AS "documentCount", coalesce(counts.chunks, 0)::int AS "chunkCount"
     FROM (SELECT * FROM knowledge_bases WHERE workspace_id = $1 ${after.sql} ORDER BY created_at DESC, id DESC LIMIT $${2 + after.values.length}) knowledge_bases
     LEFT JOIN LATERAL (SELECT count(*) AS documents, sum(chunk_count) AS chunks FROM knowledge_documents d WHERE d.knowledge_base_id = knowledge_bases.id) counts
       ON true
     ORDER BY created_at DESC, id DESC`,
    workspaceId,
    ...after.values,
    page.limit + 1,
  );
  return keysetResult(
    rows,
    page.limit,
    (row) => ({ ...toBase(row), documentCount: Number(row.documentCount), chunkCount: Number(row.chunkCount) }),
    (row) => timeAndIdOf(iso(row.createdAt), String(row.id)),
  );
}

/** The bases among `ids` that belong to the workspace; ids of other workspaces are left out like unknown ones. */
export async function findBases(
  db: SqlClient,
  workspaceId: string,
  ids: readonly string[],
): Promise<KnowledgeBaseRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${BASE_COLUMNS} FROM knowledge_bases WHERE workspace_id = $1 AND id = ANY($2::text[])`,
    workspaceId,
    textArrayLiteral(ids),
  );
  return rows.map(toBase);
}

export async function getBase(db: SqlClient, workspaceId: string, id: string): Promise<KnowledgeBaseRecord> {
  const [base] = await findBases(db, workspaceId, [id]);
  if (!base) throw baseNotFound(id);
  return base;
}

export async function deleteBase(db: SqlClient, workspaceId: string, id: string): Promise<void> {
  const count = await db.$executeRawUnsafe(
    `DELETE FROM knowledge_bases WHERE id = $1 AND workspace_id = $2`,
    id,
    workspaceId,
  );
  if (count === 0) throw baseNotFound(id);
}

/** Stores a pending document, only if its base is in the workspace (checked in the same statement). */
export async function insertDocument(
  db: SqlClient,
  workspaceId: string,
  input: {
    knowledgeBaseId: string;
    name: string;
    kind: FileKind;
    bytes: Uint8Array;
    metadata: Record<string, unknown>;
  },
): Promise<DocumentRecord> {
  // The casts: unlike VALUES, an INSERT ... SELECT does not type its parameters from the target columns.
  const rows = await db.$queryRawUnsafe<Row[]>(
    `INSERT INTO knowledge_documents (id, knowledge_base_id, name, kind, size_bytes, content, content_hash, metadata, status, created_at, updated_at)
     SELECT $3::text, b.id, $4::text, $5::text, $6::int, $7::bytea, $8::text, $9::jsonb, 'pending', now(), now() FROM knowledge_bases b WHERE b.id = $2 AND b.workspace_id = $1
     RETURNING ${DOCUMENT_COLUMNS}`,
    workspaceId,
    input.knowledgeBaseId,
    uuidV7(),
    input.name,
    input.kind,
    input.bytes.byteLength,
    Buffer.from(input.bytes),
    createHash("sha256").update(input.bytes).digest("hex"),
    JSON.stringify(input.metadata),
  );
  if (!rows[0]) throw baseNotFound(input.knowledgeBaseId);
  return toDocument(rows[0]);
}

/** A page of a base's documents, newest first; empty for a base of another workspace (the service checks the base first for its 404). */
export async function listDocuments(
  db: SqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  page: KeysetPage<TimeAndId> = FIRST_PAGE,
): Promise<KeysetResult<DocumentRecord, TimeAndId>> {
  const after = olderThan(page.after, 3);
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${DOCUMENT_COLUMNS} FROM knowledge_documents WHERE ${DOCUMENT_IN_WORKSPACE} ${after.sql}
     ORDER BY created_at DESC, id DESC LIMIT $${3 + after.values.length}`,
    workspaceId,
    knowledgeBaseId,
    ...after.values,
    page.limit + 1,
  );
  return keysetResult(rows, page.limit, toDocument, (row) => timeAndIdOf(iso(row.createdAt), String(row.id)));
}

export async function getDocument(
  db: SqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  documentId: string,
): Promise<DocumentRecord> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${DOCUMENT_COLUMNS} FROM knowledge_documents WHERE ${DOCUMENT_IN_WORKSPACE} AND id = $3`,
    workspaceId,
    knowledgeBaseId,
    documentId,
  );
  if (!rows[0]) throw documentNotFound(knowledgeBaseId, documentId);
  return toDocument(rows[0]);
}

export async function deleteDocument(
  db: SqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  documentId: string,
): Promise<void> {
  const count = await db.$executeRawUnsafe(
    `DELETE FROM knowledge_documents WHERE ${DOCUMENT_IN_WORKSPACE} AND id = $3`,
    workspaceId,
    knowledgeBaseId,
    documentId,
  );
  if (count === 0) throw documentNotFound(knowledgeBaseId, documentId);
}

/** A page of a document's chunks in order; empty unless the document is in that base of that workspace. */
export async function listChunks(
  db: SqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  documentId: string,
  page: KeysetPage<ChunkPosition> = FIRST_PAGE,
): Promise<KeysetResult<ChunkView, ChunkPosition>> {
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT chunk_index AS "chunkIndex", content, token_count AS "tokenCount", metadata FROM knowledge_chunks
     WHERE ${DOCUMENT_IN_WORKSPACE} AND document_id = $3 AND chunk_index > $4 ORDER BY chunk_index LIMIT $5`,
    workspaceId,
    knowledgeBaseId,
    documentId,
    page.after ? page.after[0] : -1,
    page.limit + 1,
  );
  const toChunk = (row: Row): ChunkView => ({
    chunkIndex: Number(row.chunkIndex),
    content: String(row.content),
    tokenCount: Number(row.tokenCount),
    metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>,
  });
  return keysetResult(rows, page.limit, toChunk, (row): ChunkPosition => [Number(row.chunkIndex)]);
}
