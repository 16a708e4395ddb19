import "server-only";
import { readFile } from "node:fs/promises";
import { detectFileKind, UnsupportedFileError, type FileKind } from "@/knowledge";
import { RequestError } from "@/lib/http/errors";
import { insufficientStorageOf, requireDiskSpace } from "@/lib/system/insufficient-storage";
import { insertDocument, type DocumentRecord } from "./knowledge-store";
import type { UploadedFile } from "./read-upload";
import type { SqlClient } from "./sql-client";

/** A client whose transactions take Prisma's time options: an upload of 20 files of 10 MB outlasts the 5 s default. */
export interface UploadSqlClient extends SqlClient {
  $transaction<R>(fn: (tx: SqlClient) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
}

/** How long a key is remembered (as Stripe does): a retry comes within minutes, and the table stays small. */
export const IDEMPOTENCY_KEY_HOURS = 24;
const UPLOAD_TRANSACTION = { maxWait: 30_000, timeout: 5 * 60_000 };

export interface StoredUpload {
  /** The documents as the upload first answered them (status `pending`), also when replayed. */
  documents: DocumentRecord[];
  /** True when an earlier upload with the same key stored them. */
  replayed: boolean;
}

async function bytesOf(file: UploadedFile): Promise<Uint8Array> {
  return "bytes" in file ? file.bytes : readFile(file.path);
}

function kindOf(name: string, bytes: Uint8Array): FileKind {
  try {
    return detectFileKind(name, bytes);
  } catch (error) {
    if (error instanceof UnsupportedFileError)
      throw new RequestError(error.code, error.message, [{ path: name, message: error.message }]);
    throw error;
  }
}

/** The answer of an earlier upload with this key to this base of this workspace, if it is recent enough. */
export async function findUpload(
  db: SqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  key: string,
): Promise<DocumentRecord[] | null> {
  const rows = await db.$queryRawUnsafe<Array<{ documents: unknown }>>(
    `SELECT u.documents FROM knowledge_uploads u JOIN knowledge_bases b ON b.id = u.knowledge_base_id
     WHERE u.knowledge_base_id = $2 AND b.workspace_id = $1 AND u.idempotency_key = $3
       AND u.created_at > now() - ($4::int * interval '1 hour')`,
    workspaceId,
    knowledgeBaseId,
    key,
    IDEMPOTENCY_KEY_HOURS,
  );
  const stored = rows[0]?.documents;
  if (stored === undefined) return null;
  return (typeof stored === "string" ? JSON.parse(stored) : stored) as DocumentRecord[];
}

/**
 * Checks every file (extension and content) before storing any, then stores them all in one
 * transaction, so a bad file or a failure half-way stores nothing. With a key, the key is claimed
 * in the same transaction: of two uploads with one key, the second waits for the first and
 * answers what it stored. The base must already be known to be the workspace's.
 */
export async function storeUpload(
  db: UploadSqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  files: UploadedFile[],
  metadata: Record<string, unknown>,
  key?: string,
  databaseDir?: string,
): Promise<StoredUpload> {
  if (key) {
    const earlier = await findUpload(db, workspaceId, knowledgeBaseId, key);
    if (earlier) return { documents: earlier, replayed: true };
  }
  // One file in memory at a time: each is read to check it, then again to store it.
  const kinds: FileKind[] = [];
  let bytes = 0;
  for (const file of files) {
    const content = await bytesOf(file);
    kinds.push(kindOf(file.name, content));
    bytes += content.byteLength;
  }
  // The bytes are stored in a row (TOAST) and the WAL, and read again as chunks: three times over.
  if (databaseDir) await requireDiskSpace("this upload", databaseDir, bytes * 3);
  try {
    return await insertUpload(db, workspaceId, knowledgeBaseId, files, kinds, metadata, key);
  } catch (error) {
    // The embedded database's own refusal (disk_full, naming its folder) or PostgreSQL's full disk.
    throw insufficientStorageOf(error) ?? error;
  }
}

async function insertUpload(
  db: UploadSqlClient,
  workspaceId: string,
  knowledgeBaseId: string,
  files: UploadedFile[],
  kinds: FileKind[],
  metadata: Record<string, unknown>,
  key?: string,
): Promise<StoredUpload> {
  return db.$transaction(async (tx) => {
    if (key) {
      await tx.$executeRawUnsafe(
        `DELETE FROM knowledge_uploads WHERE knowledge_base_id = $1 AND created_at <= now() - ($2::int * interval '1 hour')`,
        knowledgeBaseId,
        IDEMPOTENCY_KEY_HOURS,
      );
      const claimed = await tx.$queryRawUnsafe<unknown[]>(
        `INSERT INTO knowledge_uploads (knowledge_base_id, idempotency_key, documents) VALUES ($1, $2, '[]'::jsonb)
         ON CONFLICT (knowledge_base_id, idempotency_key) DO NOTHING RETURNING 1`,
        knowledgeBaseId,
        key,
      );
      if (claimed.length === 0)
        return { documents: (await findUpload(tx, workspaceId, knowledgeBaseId, key)) ?? [], replayed: true };
    }
    const documents: DocumentRecord[] = [];
    for (const [index, file] of files.entries()) {
      const kind = kinds[index]!;
      documents.push(
        await insertDocument(tx, workspaceId, {
          knowledgeBaseId,
          name: file.name,
          kind,
          bytes: await bytesOf(file),
          metadata,
        }),
      );
    }
    if (key) {
      await tx.$executeRawUnsafe(
        `UPDATE knowledge_uploads SET documents = $3::jsonb WHERE knowledge_base_id = $1 AND idempotency_key = $2`,
        knowledgeBaseId,
        key,
        JSON.stringify(documents),
      );
    }
    return { documents, replayed: false };
  }, UPLOAD_TRANSACTION);
}
