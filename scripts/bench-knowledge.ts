/**
 * `npm run bench:knowledge`: knowledge ingestion and search on PostgreSQL.
 *
 * Creates a throwaway database (trellis_bench_knowledge) on 127.0.0.1 as user postgres, applies
 * the migrations, and ingests synthetic documents (Zipf-distributed words from a 20,000-word
 * vocabulary) through the real pipeline (upload, worker: parse, chunk, offline embedding, insert)
 * up to the first size, timing it. Larger sizes are reached in SQL: the ingested documents and
 * chunks are copied with new ids and fresh text drawn from the same word distribution (their
 * vectors are copied, so vector scores of copies do not match their text; latency is what is
 * measured), because ingesting 100,000 chunks through the pipeline takes too long on a shared
 * 2-core machine; pass --pipeline to ingest every size for real. At each size it times searches
 * (hybrid, keyword, vector) with queries drawn from the stored text and prints median and p95.
 * The database is dropped afterwards. Options: --sizes 10000,100000 --queries 200 --pipeline
 * --url postgres://postgres:postgres@127.0.0.1:5432 --keep (keep the database).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { createPrisma } from "@/lib/db/client";
import { applyMigrationsToPostgres } from "@/lib/db/migrate/apply-migrations.mjs";
import { createKnowledgeService } from "@/lib/knowledge/knowledge-service";
import type { SearchMode } from "@/contract";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000" },
    queries: { type: "string", default: "200" },
    url: { type: "string", default: "postgres://postgres:postgres@127.0.0.1:5432" },
    keep: { type: "boolean", default: false },
    pipeline: { type: "boolean", default: false },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const QUERIES = Number(values.queries);
const DATABASE = "trellis_bench_knowledge";
const CHUNK_SIZE = 200;
const CHUNKS_PER_DOCUMENT = 50;

/** A deterministic pseudo-random stream (mulberry32), so runs are comparable. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(42);
const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tas",
  "vo",
  "pel",
  "dri",
  "sun",
  "ber",
  "ga",
  "tor",
  "ny",
  "qua",
  "zel",
  "fi",
];
/**
 * The most frequent words of English text are stop words, which full-text search drops; the
 * synthetic vocabulary starts with them so its statistics look like real text, not like a
 * language whose commonest words all carry meaning.
 */
const STOP_WORDS =
  "the of and to a in is it that for on was with he as at by this had not are but from or have an they which one you were all we her she there would their will when who him been has more if no out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three".split(
    " ",
  );
/** A 20,000-word vocabulary drawn with a Zipf-like skew, as in natural text. */
const VOCABULARY = Array.from({ length: 20_000 }, (_, index) => {
  if (index < STOP_WORDS.length) return STOP_WORDS[index]!;
  let word = "";
  let n = index + 7;
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
});
const zipfWord = () =>
  VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(Math.exp(rand() * Math.log(VOCABULARY.length))) - 1)]!;

function sentence(): string {
  const length = 8 + Math.floor(rand() * 12);
  const words = Array.from({ length }, zipfWord);
  return `${words.join(" ")}.`;
}

/** A Markdown document of about CHUNKS_PER_DOCUMENT chunks of CHUNK_SIZE tokens. */
function document(index: number): string {
  const sections: string[] = [`# Document ${index}`];
  for (let section = 0; section < CHUNKS_PER_DOCUMENT; section++) {
    sections.push(`## Section ${section}`, Array.from({ length: 7 }, sentence).join(" "));
  }
  return sections.join("\n\n");
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${values.url}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const url = `${values.url}/${DATABASE}`;
await admin(`DROP DATABASE IF EXISTS ${DATABASE}`);
await admin(`CREATE DATABASE ${DATABASE}`);
const database = createPrisma({ kind: "postgres", url });
const report: Record<string, unknown> = {
  date: new Date().toISOString(),
  chunkSize: CHUNK_SIZE,
  embedder: "offline/hash-embed (256 dimensions)",
  sizes: {},
};
try {
  await applyMigrationsToPostgres(url);
  const service = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  report.pgvector = await service.start();
  // Everything stored belongs to a workspace: the bench's own, in its fresh database.
  const workspaceId = (await database.prisma.workspace.create({ data: { name: "bench" } })).id;
  const base = await service.createBase(workspaceId, { name: "bench", chunkSize: CHUNK_SIZE, chunkOverlap: 0 });
  let chunks = 0;
  let documents = 0;
  let ingestMs = 0;
  let pipelineChunks = 0;
  for (const size of SIZES) {
    if (chunks > 0 && !values.pipeline) {
      // Copy the pipeline-ingested documents and chunks until the size is reached.
      for (let copy = 1; chunks < size; copy++) {
        const suffix = `-copy${copy}`;
        await database.prisma.$executeRawUnsafe(
          `INSERT INTO knowledge_documents (id, knowledge_base_id, name, kind, size_bytes, content, content_hash, metadata, status, attempts, chunk_count, token_count, created_at, updated_at, processed_at)
           SELECT id || $1, knowledge_base_id, name || $1, kind, size_bytes, content, content_hash, metadata, status, attempts, chunk_count, token_count, now(), now(), now()
           FROM knowledge_documents WHERE id NOT LIKE '%-copy%'`,
          suffix,
        );
        // Fresh text for every copied chunk, drawn like the originals, so no chunk is a duplicate and
        // each word's frequency grows with the corpus as it would with more real documents.
        await database.prisma.$executeRawUnsafe(
          `WITH generated AS (
             SELECT c.id || $1 AS id, c.knowledge_base_id, c.document_id || $1 AS document_id, c.chunk_index, c.token_count, c.metadata, c.embedding, c.sign_bits,
               (SELECT string_agg(($2::text[])[1 + floor(exp(random() * ln(${VOCABULARY.length - 1})))::int], ' ') FROM generate_series(1, 140) WHERE c.id IS NOT NULL) AS content
             FROM knowledge_chunks c WHERE c.id NOT LIKE '%-copy%')
           INSERT INTO knowledge_chunks (id, knowledge_base_id, document_id, chunk_index, content, token_count, metadata, embedding, sign_bits, search_vector)
           SELECT id, knowledge_base_id, document_id, chunk_index, content, token_count, metadata, embedding, sign_bits, to_tsvector('english', content) FROM generated`,
          suffix,
          `{${VOCABULARY.join(",")}}`,
        );
        chunks = (await service.listBases(workspaceId)).items[0]?.chunkCount ?? 0;
        process.stdout.write(`\rcopied up to ${chunks} chunks`);
      }
      report.copiedBeyond = report.copiedBeyond ?? SIZES[0];
    }
    while (chunks < size) {
      const batch = Array.from({ length: 10 }, () => ({
        name: `doc-${documents++}.md`,
        bytes: new TextEncoder().encode(document(documents)),
      }));
      const started = performance.now();
      await service.uploadDocuments(workspaceId, base.id, batch);
      await service.drain();
      ingestMs += performance.now() - started;
      const before = chunks;
      chunks = (await service.listBases(workspaceId)).items[0]?.chunkCount ?? 0;
      if (chunks === before) throw new Error("ingestion made no progress; is the worker running?");
      pipelineChunks += chunks - before;
      process.stdout.write(`\ringested ${chunks} chunks`);
    }
    await database.prisma.$executeRawUnsafe(`ANALYZE knowledge_chunks`);
    const failed = (await service.listDocuments(workspaceId, base.id)).items.filter((item) => item.status !== "ready");
    if (failed.length) throw new Error(`${failed.length} documents did not become ready: ${failed[0]?.error}`);
    const samples = await database.prisma.$queryRawUnsafe<Array<{ content: string }>>(
      `SELECT content FROM knowledge_chunks ORDER BY random() LIMIT ${QUERIES}`,
    );
    const queries = samples
      .map(({ content }) => {
        const words = content.toLowerCase().match(/[a-z]{4,}/g) ?? [];
        const start = Math.floor(rand() * Math.max(1, words.length - 4));
        return words.slice(start, start + 3 + Math.floor(rand() * 2)).join(" ");
      })
      .filter(Boolean);
    const latency: Record<string, unknown> = {};
    for (const mode of ["hybrid", "keyword", "vector"] as SearchMode[]) {
      for (const query of queries.slice(0, 10))
        await service.search(workspaceId, { knowledgeBaseIds: [base.id], query, topK: 5, mode }); // warm up
      const times: number[] = [];
      for (const query of queries) {
        const started = performance.now();
        await service.search(workspaceId, { knowledgeBaseIds: [base.id], query, topK: 5, mode });
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      latency[mode] = {
        medianMs: Math.round(percentile(times, 50) * 10) / 10,
        p95Ms: Math.round(percentile(times, 95) * 10) / 10,
        queries: times.length,
      };
    }
    const perThousand = Math.round((ingestMs / pipelineChunks) * 1000);
    (report.sizes as Record<string, unknown>)[String(size)] = {
      chunks,
      documents,
      ingestMsPer1000Chunks: perThousand,
      search: latency,
    };
    console.log(
      `\n${chunks} chunks: pipeline ingest ${perThousand} ms per 1,000 chunks (over the ${pipelineChunks} chunks ingested through it)`,
    );
    for (const [mode, figures] of Object.entries(latency))
      console.log(`  ${mode.padEnd(8)} ${JSON.stringify(figures)}`);
  }
  await service.stop();
} finally {
  await database.close();
  if (!values.keep) await admin(`DROP DATABASE IF EXISTS ${DATABASE}`);
}
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/knowledge.json", `${JSON.stringify(report, null, 2)}\n`);
console.log("wrote bench-results/knowledge.json");
