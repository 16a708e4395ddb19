import type { SearchAnswer, SearchMode, Usage } from "@/contract";

export interface SearchRequest {
  knowledgeBaseIds: string[];
  query: string;
  topK?: number;
  mode?: SearchMode;
  /** Drops results scoring below it (the score of the chosen mode). */
  minScore?: number;
  /** Document metadata that must match (JSON containment: `{ "tags": ["policy"] }`). */
  filters?: Record<string, unknown>;
}

export interface SearchResult {
  content: string;
  /**
   * hybrid: reciprocal rank fusion, 1.0 = first in both lists; keyword: ts_rank_cd scaled to
   * 0..1; vector: cosine similarity.
   */
  score: number;
  documentId: string;
  documentName: string;
  chunkIndex: number;
  knowledgeBaseId: string;
  metadata: Record<string, unknown>;
}

/** The API's search answer (the contract's SearchAnswer), with each result's base and the embedding's usage typed. */
export type SearchResponse = Omit<SearchAnswer, "results" | "usage"> & {
  results: SearchResult[];
  /** What embedding the query cost (absent for keyword search). */
  usage?: Usage;
};

export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 100;

/** What the Knowledge block and the knowledge_search tool need: one search call. */
export type KnowledgeSearchFunction = (
  request: SearchRequest,
  options?: { signal?: AbortSignal },
) => Promise<SearchResponse>;
