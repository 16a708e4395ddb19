import "server-only";
import { sumUsage } from "@/executor";
import { type Usage, type KnowledgeBaseRecord } from "@/contract";
import {
  type Embedder,
  reciprocalRankFusion,
  DEFAULT_TOP_K,
  MAX_TOP_K,
  type SearchRequest,
  type SearchResponse,
} from "@/knowledge";
import { RequestError } from "@/lib/http/errors";
import {
  arrayVectorSearch,
  countChunksInScope,
  HYBRID_SIGN_PASS_LIMIT,
  keywordSearch,
  loadChunkResults,
  pgvectorSearch,
  type ChunkScope,
  type RankedId,
} from "./chunk-search";
import { findBases, NotFoundError } from "./knowledge-store";
import type { SqlClient } from "./sql-client";

/** How many candidates each list contributes to fusion, at least. */
const FUSION_DEPTH = 50;

export interface SearchDependencies {
  db: SqlClient;
  /** An embedder with the workspace's provider settings as they are now. */
  embedderFor(workspaceId: string, modelId: string): Promise<Embedder>;
  usePgvector(): boolean;
}

function groupByModel(bases: KnowledgeBaseRecord[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const base of bases) groups.set(base.embeddingModel, [...(groups.get(base.embeddingModel) ?? []), base.id]);
  return groups;
}

async function vectorLeg(
  deps: SearchDependencies,
  workspaceId: string,
  bases: KnowledgeBaseRecord[],
  request: SearchRequest,
  depth: number,
  extraCandidates: readonly string[],
  signal?: AbortSignal,
): Promise<{ ranked: RankedId[]; usage: Usage[] }> {
  const ranked: RankedId[] = [];
  const usage: Usage[] = [];
  // Bases embedded with different models cannot share a query vector: one query per model.
  for (const [modelId, knowledgeBaseIds] of groupByModel(bases)) {
    const embedder = await deps.embedderFor(workspaceId, modelId);
    const embedded = await embedder.embed([request.query], { signal });
    usage.push(embedded.usage);
    const raw = embedded.embeddings[0] ?? [];
    const norm = Math.sqrt(raw.reduce((sum, value) => sum + value * value, 0));
    const vector = norm > 0 ? raw.map((value) => value / norm) : raw;
    const scope: ChunkScope = { knowledgeBaseIds, filters: request.filters };
    if (deps.usePgvector()) {
      ranked.push(...(await pgvectorSearch(deps.db, vector, scope, depth)));
    } else {
      const scopeSize = await countChunksInScope(deps.db, knowledgeBaseIds);
      const skipSignPass =
        scopeSize > HYBRID_SIGN_PASS_LIMIT && extraCandidates.length >= (request.topK ?? DEFAULT_TOP_K);
      ranked.push(
        ...(await arrayVectorSearch(deps.db, vector, scope, depth, { scopeSize, extraCandidates, skipSignPass })),
      );
    }
  }
  ranked.sort((a, b) => b.score - a.score);
  return { ranked, usage };
}

/**
 * Keyword, vector or hybrid search over one or more knowledge bases of a workspace. Hybrid runs
 * both and merges them by reciprocal rank fusion; its keyword matches are also vector candidates,
 * so a large base never misses a chunk that both lists would rank well. A base of another
 * workspace is refused exactly like an unknown one, before any chunk is read.
 */
export async function searchKnowledge(
  deps: SearchDependencies,
  workspaceId: string,
  request: SearchRequest,
  signal?: AbortSignal,
): Promise<SearchResponse> {
  const query = request.query.trim();
  if (!query)
    throw new RequestError("invalid_request", "The search query is empty", [{ path: "query", message: "is required" }]);
  const topK = request.topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
    throw new RequestError("invalid_request", `topK must be a whole number from 1 to ${MAX_TOP_K}`, [
      { path: "topK", message: "is out of range" },
    ]);
  }
  const ids = [...new Set(request.knowledgeBaseIds)];
  if (ids.length === 0)
    throw new RequestError("invalid_request", "Choose at least one knowledge base", [
      { path: "knowledgeBaseIds", message: "is empty" },
    ]);
  const bases = await findBases(deps.db, workspaceId, ids);
  const missing = ids.filter((id) => !bases.some((base) => base.id === id));
  if (missing.length > 0) throw new NotFoundError(`Knowledge base "${missing[0]}" does not exist`);

  const mode = request.mode ?? "hybrid";
  const scope: ChunkScope = { knowledgeBaseIds: ids, filters: request.filters };
  const depth = Math.max(FUSION_DEPTH, topK * 3);
  let ranked: RankedId[];
  let usage: Usage | undefined;
  if (mode === "keyword") {
    ranked = await keywordSearch(deps.db, query, scope, topK);
  } else if (mode === "vector") {
    const vector = await vectorLeg(deps, workspaceId, bases, { ...request, query }, topK, [], signal);
    ranked = vector.ranked;
    usage = sumUsage(vector.usage);
  } else {
    const keyword = await keywordSearch(deps.db, query, scope, depth, topK);
    const vector = await vectorLeg(
      deps,
      workspaceId,
      bases,
      { ...request, query },
      depth,
      keyword.map((item) => item.id),
      signal,
    );
    usage = sumUsage(vector.usage);
    ranked = reciprocalRankFusion([keyword.map((item) => item.id), vector.ranked.map((item) => item.id)]).map(
      ({ id, score }) => ({ id, score }),
    );
  }
  if (request.minScore !== undefined) ranked = ranked.filter((item) => item.score >= request.minScore!);
  const results = await loadChunkResults(deps.db, ranked.slice(0, topK));
  const response: SearchResponse = { results, totalResults: results.length, query, mode };
  if (usage) response.usage = usage;
  return response;
}
