import { countTokens } from "../chunking/tokenizer";
import type { Embedder, EmbeddingBatch } from "./embedder";
import { OFFLINE_EMBEDDER_ID } from "@/contract";
import { termsOf } from "./terms";

export const OFFLINE_EMBEDDER_DIMENSIONS = 256;

/** 32-bit FNV-1a: a fast, stable hash, the same on every machine and run. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Feature hashing ("the hashing trick") of words and adjacent word pairs into a fixed number of
 * dimensions, with a hashed sign so collisions cancel rather than pile up, log-scaled term
 * frequency, and unit length so a dot product is the cosine. No model, no key, no download.
 */
export function hashEmbed(text: string, dimensions = OFFLINE_EMBEDDER_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  const counts = new Map<string, number>();
  const terms = termsOf(text);
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  for (let index = 1; index < terms.length; index++) {
    const pair = `${terms[index - 1]} ${terms[index]}`;
    counts.set(pair, (counts.get(pair) ?? 0) + 0.5);
  }
  for (const [feature, count] of counts) {
    const hash = fnv1a(feature);
    const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
    vector[hash % dimensions]! += sign * (1 + Math.log(count));
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm > 0 ? value / norm : 0));
}

export function createHashEmbedder(dimensions = OFFLINE_EMBEDDER_DIMENSIONS): Embedder {
  return {
    id: OFFLINE_EMBEDDER_ID,
    maxBatchSize: 512,
    async embed(texts, options = {}): Promise<EmbeddingBatch> {
      // Tokens are those of the chunk tokenizer, so the figure means the same as elsewhere; the
      // embedder itself is free.
      const counts = options.tokenCounts?.length === texts.length ? options.tokenCounts : texts.map(countTokens);
      const tokens = counts.reduce((sum, count) => sum + count, 0);
      return {
        embeddings: texts.map((text) => hashEmbed(text, dimensions)),
        usage: { tokens: { prompt: tokens, completion: 0, total: tokens }, cost: { input: 0, output: 0, total: 0 } },
      };
    },
  };
}
