import type { Usage } from "@/contract";

export interface EmbeddingBatch {
  /** One vector per input text, in order. */
  embeddings: number[][];
  usage: Usage;
}

/** Turns texts into vectors. Implementations: the offline hash embedder and AI SDK models. */
export interface Embedder {
  /** Trellis model id, e.g. `offline/hash-embed` or `openai/text-embedding-3-small`. */
  readonly id: string;
  /** Texts per request; ingestion sends batches of at most this many. */
  readonly maxBatchSize: number;
  /**
   * `tokenCounts` (cl100k_base, one per text) lets an embedder that bills nothing report tokens
   * without counting again; provider embedders use the provider's own count.
   */
  embed(texts: string[], options?: { signal?: AbortSignal; tokenCounts?: number[] }): Promise<EmbeddingBatch>;
}
