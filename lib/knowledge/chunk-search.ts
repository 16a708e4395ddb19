import "server-only";
import { signBits, type SearchResult } from "@/knowledge";
import { numberArrayLiteral, textArrayLiteral, type SqlClient } from "./sql-client";

/**
 * The SQL behind search. Every query is limited to the chosen knowledge bases and, with
 * `filters`, to documents whose metadata contains the filter (jsonb `@>`).
 */

export interface RankedId {
  id: string;
  score: number;
}

export interface ChunkScope {
  knowledgeBaseIds: readonly string[];
  filters?: Record<string, unknown>;
}

/** Up to this many chunks in scope, vector search compares the query with every chunk. */
export const EXACT_VECTOR_SCAN_LIMIT = 600;
/** Above it, this many chunks with the most agreeing signs are ranked by exact cosine. */
export const SIGN_PREFILTER_CANDIDATES = 150;
/**
 * Above this many chunks, hybrid search (without pgvector) skips the sign pass, which reads every
 * row, and ranks its keyword candidates by exact cosine instead, as long as there are at least
 * topK of them. Its vector list then cannot add chunks that share no word with the query: nothing
 * is lost with the offline embedder, which only matches words; with a semantic model, hybrid
 * misses paraphrase-only matches on large bases (vector mode and pgvector's index still find them).
 */
export const HYBRID_SIGN_PASS_LIMIT = 2_000;

function scopeSql(scope: ChunkScope, firstParameter: number): { where: string; values: unknown[] } {
  const values: unknown[] = [textArrayLiteral(scope.knowledgeBaseIds)];
  let where = `c.knowledge_base_id = ANY($${firstParameter}::text[])`;
  if (scope.filters && Object.keys(scope.filters).length > 0) {
    values.push(JSON.stringify(scope.filters));
    where += ` AND EXISTS (SELECT 1 FROM knowledge_documents d WHERE d.id = c.document_id AND d.metadata @> $${firstParameter + 1}::jsonb)`;
  }
  return { where, values };
}

/** Matches of `match`, ranked by `rank` (the any-word query, so scores compare across tiers). */
async function rankedMatches(
  db: SqlClient,
  match: string,
  rank: string,
  scope: ChunkScope,
  limit: number,
  exclude: readonly string[],
): Promise<RankedId[]> {
  const { where, values } = scopeSql(scope, 5);
  return db.$queryRawUnsafe<RankedId[]>(
    `SELECT c.id, ts_rank(c.search_vector, $2::tsquery, 1 | 32)::float8 AS score
     FROM knowledge_chunks c
     WHERE c.search_vector @@ $1::tsquery AND NOT (c.id = ANY($4::text[])) AND ${where}
     ORDER BY score DESC, c.id LIMIT $3`,
    match,
    rank,
    limit,
    textArrayLiteral(exclude),
    ...values,
  );
}

/** The query's lexemes: English stemming, stop words dropped (the same rules as the index). */
async function queryLexemes(db: SqlClient, query: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ lexeme: string }>>(
    `SELECT DISTINCT lexeme FROM unnest(to_tsvector('english', $1))`,
    query,
  );
  return rows.map((row) => row.lexeme);
}

const quote = (lexeme: string) => `'${lexeme.replace(/'/g, "''")}'`;
/** Pairs are tried for at most this many query words (28 pairs). */
const MAX_PAIR_TERMS = 8;

/**
 * Full-text search, ranked by ts_rank with length normalisation (scaled to 0..1), found through
 * the GIN index on search_vector, in tiers: chunks holding every word of the query, then (if
 * fewer than `enough`) chunks holding at least two of them, then any. A question rarely has every
 * word of its answer, but matching any single word means ranking every chunk that holds a
 * common one, which is what makes keyword search slow on large bases; the tiers stop early.
 */
export async function keywordSearch(
  db: SqlClient,
  query: string,
  scope: ChunkScope,
  limit: number,
  enough = limit,
): Promise<RankedId[]> {
  const lexemes = await queryLexemes(db, query);
  if (lexemes.length === 0) return [];
  const quoted = lexemes.map(quote);
  const any = quoted.join(" | ");
  const tiers = [quoted.join(" & ")];
  if (lexemes.length >= 3) {
    const terms = quoted.slice(0, MAX_PAIR_TERMS);
    tiers.push(
      terms.flatMap((first, index) => terms.slice(index + 1).map((second) => `(${first} & ${second})`)).join(" | "),
    );
  }
  if (lexemes.length >= 2) tiers.push(any);
  const found: RankedId[] = [];
  for (const tier of tiers) {
    found.push(
      ...(await rankedMatches(
        db,
        tier,
        any,
        scope,
        limit - found.length,
        found.map((item) => item.id),
      )),
    );
    if (found.length >= Math.min(enough, limit)) break;
  }
  return found;
}

export async function countChunksInScope(db: SqlClient, knowledgeBaseIds: readonly string[]): Promise<number> {
  const rows = await db.$queryRawUnsafe<Array<{ count: number }>>(
    `SELECT coalesce(sum(chunk_count), 0)::int AS count FROM knowledge_documents WHERE knowledge_base_id = ANY($1::text[]) AND status = 'ready'`,
    textArrayLiteral(knowledgeBaseIds),
  );
  return Number(rows[0]?.count ?? 0);
}

/** Dot product of unit vectors (the cosine), computed in the database over double precision[]. */
const DOT = `(SELECT sum(a * b) FROM unnest(c.embedding, $1::float8[]) AS u(a, b))::float8`;

/**
 * Vector search over embeddings stored as arrays (no extension needed). Small scopes are
 * scanned exactly. Large ones take a first pass that costs one bitwise AND per row
 * (agreeing signs, see sign-bits.ts), add any `extraCandidates` (hybrid search passes its
 * keyword matches), and rank that set by exact cosine.
 */
export async function arrayVectorSearch(
  db: SqlClient,
  vector: number[],
  scope: ChunkScope,
  limit: number,
  options: { scopeSize: number; extraCandidates?: readonly string[]; skipSignPass?: boolean },
): Promise<RankedId[]> {
  const { where, values } = scopeSql(scope, 3);
  if (options.skipSignPass) {
    const candidateScope = scopeSql(scope, 4);
    return db.$queryRawUnsafe<RankedId[]>(
      `SELECT c.id, ${DOT} AS score FROM knowledge_chunks c
       WHERE c.id = ANY($3::text[]) AND ${candidateScope.where} AND array_length(c.embedding, 1) = array_length($1::float8[], 1)
       ORDER BY score DESC, c.id LIMIT $2`,
      numberArrayLiteral(vector),
      limit,
      textArrayLiteral(options.extraCandidates ?? []),
      ...candidateScope.values,
    );
  }
  if (options.scopeSize <= EXACT_VECTOR_SCAN_LIMIT) {
    return db.$queryRawUnsafe<RankedId[]>(
      `SELECT c.id, ${DOT} AS score FROM knowledge_chunks c
       WHERE ${where} AND array_length(c.embedding, 1) = array_length($1::float8[], 1)
       ORDER BY score DESC, c.id LIMIT $2`,
      numberArrayLiteral(vector),
      limit,
      ...values,
    );
  }
  const bitsParameter = 3 + values.length;
  return db.$queryRawUnsafe<RankedId[]>(
    `WITH candidates AS (
       (SELECT c.id FROM knowledge_chunks c
        WHERE ${where} AND length(c.sign_bits) = length($${bitsParameter}::varbit)
        ORDER BY bit_count(c.sign_bits & $${bitsParameter}::varbit) DESC LIMIT $${bitsParameter + 1})
       UNION SELECT unnest($${bitsParameter + 2}::text[]))
     SELECT c.id, ${DOT} AS score FROM knowledge_chunks c
     WHERE c.id IN (SELECT id FROM candidates) AND array_length(c.embedding, 1) = array_length($1::float8[], 1)
     ORDER BY score DESC, c.id LIMIT $2`,
    numberArrayLiteral(vector),
    limit,
    ...values,
    signBits(vector),
    SIGN_PREFILTER_CANDIDATES,
    textArrayLiteral(options.extraCandidates ?? []),
  );
}

/** Vector search through pgvector's HNSW index (see pgvector.ts), when the extension is there. */
export async function pgvectorSearch(
  db: SqlClient,
  vector: number[],
  scope: ChunkScope,
  limit: number,
): Promise<RankedId[]> {
  const dimensions = vector.length;
  const { where, values } = scopeSql(scope, 3);
  return db.$queryRawUnsafe<RankedId[]>(
    `SELECT c.id, (1 - (c.embedding_vector::vector(${dimensions}) <=> $1::vector(${dimensions})))::float8 AS score
     FROM knowledge_chunks c
     WHERE vector_dims(c.embedding_vector) = ${dimensions} AND ${where}
     ORDER BY c.embedding_vector::vector(${dimensions}) <=> $1::vector(${dimensions}) LIMIT $2`,
    `[${vector.join(",")}]`,
    limit,
    ...values,
  );
}

/** The chunks behind ranked ids, with their document names, in the given order. */
export async function loadChunkResults(
  db: SqlClient,
  ranked: ReadonlyArray<{ id: string; score: number }>,
): Promise<SearchResult[]> {
  if (ranked.length === 0) return [];
  const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT c.id, c.content, c.document_id AS "documentId", d.name AS "documentName", c.chunk_index AS "chunkIndex",
       c.knowledge_base_id AS "knowledgeBaseId", c.metadata
     FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id WHERE c.id = ANY($1::text[])`,
    textArrayLiteral(ranked.map((item) => item.id)),
  );
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  return ranked.flatMap(({ id, score }) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        content: String(row.content),
        score,
        documentId: String(row.documentId),
        documentName: String(row.documentName),
        chunkIndex: Number(row.chunkIndex),
        knowledgeBaseId: String(row.knowledgeBaseId),
        metadata: (typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata) as Record<
          string,
          unknown
        >,
      },
    ];
  });
}
