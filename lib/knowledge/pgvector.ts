import "server-only";
import type { SqlClient } from "./sql-client";

/**
 * pgvector as an optional upgrade, detected at start. When the extension is installed (or can be
 * created), chunks get a `vector` column next to their array embedding and one HNSW index per
 * embedding dimension (a partial expression index, since bases may use different models).
 * Without it, nothing changes: arrays and in-database cosine remain the path.
 */
export interface VectorCapability {
  pgvector: boolean;
  /** Why pgvector is not used, for the health page and logs. */
  reason?: string;
}

export async function detectPgvector(db: SqlClient): Promise<VectorCapability> {
  try {
    const installed = await db.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
    if (installed.length === 0) {
      const available = await db.$queryRawUnsafe<unknown[]>(
        `SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`,
      );
      if (available.length === 0)
        return { pgvector: false, reason: "the pgvector extension is not available on this server" };
      await db.$executeRawUnsafe(`CREATE EXTENSION IF NOT EXISTS vector`);
    }
    await db.$executeRawUnsafe(`ALTER TABLE knowledge_chunks ADD COLUMN IF NOT EXISTS embedding_vector vector`);
    await db.$executeRawUnsafe(
      `UPDATE knowledge_chunks SET embedding_vector = embedding::vector WHERE embedding_vector IS NULL`,
    );
    const dimensions = await db.$queryRawUnsafe<Array<{ dimensions: number }>>(
      `SELECT DISTINCT embedding_dimensions AS dimensions FROM knowledge_bases WHERE embedding_dimensions IS NOT NULL`,
    );
    for (const { dimensions: size } of dimensions) await ensureHnswIndex(db, Number(size));
    return { pgvector: true };
  } catch (error) {
    return {
      pgvector: false,
      reason: `pgvector could not be enabled: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** HNSW indexes hold at most 2,000 dimensions; larger embeddings are searched without one. */
export async function ensureHnswIndex(db: SqlClient, dimensions: number): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000) return;
  await db.$executeRawUnsafe(
    `CREATE INDEX IF NOT EXISTS knowledge_chunks_hnsw_${dimensions} ON knowledge_chunks
     USING hnsw ((embedding_vector::vector(${dimensions})) vector_cosine_ops) WHERE vector_dims(embedding_vector) = ${dimensions}`,
  );
}

/** Copies a document's array embeddings into the vector column. */
export async function syncVectorColumn(db: SqlClient, documentId: string): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE knowledge_chunks SET embedding_vector = embedding::vector WHERE document_id = $1`,
    documentId,
  );
}
