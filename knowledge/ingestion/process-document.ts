import { sumUsage } from "@/core";
import { type Usage } from "@/contract";
import { chunkDocument } from "../chunking/chunk-document";
import type { Embedder } from "../embedders/embedder";
import { parseFile } from "../parsing/parse-file";
import type { Chunk, ChunkingOptions, FileKind } from "../types";

export interface EmbeddedChunk extends Chunk {
  embedding: number[];
}

/** A parsed and chunked document, before embedding. */
export interface PreparedDocument {
  chunks: Chunk[];
  /** Facts found while parsing (pages, rows, title). */
  metadata: Record<string, unknown>;
}

export interface ProcessedDocument {
  chunks: EmbeddedChunk[];
  /** What embedding the chunks cost. */
  usage: Usage;
  /** Facts found while parsing (pages, rows, title). */
  metadata: Record<string, unknown>;
}

/** Parse and chunk one file: the CPU-heavy part of ingestion, which runs in an ingestion thread. */
export async function prepareDocument(
  file: { kind: FileKind; bytes: Uint8Array },
  chunking: ChunkingOptions,
): Promise<PreparedDocument> {
  const parsed = await parseFile(file.kind, file.bytes);
  return { chunks: chunkDocument(parsed.blocks, chunking), metadata: parsed.metadata };
}

/** Embeds prepared chunks in batches of the embedder's size, adding up what it cost. */
export async function embedChunks(
  prepared: PreparedDocument,
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<ProcessedDocument> {
  const { chunks } = prepared;
  const embedded: EmbeddedChunk[] = [];
  const usages: Usage[] = [];
  for (let start = 0; start < chunks.length; start += embedder.maxBatchSize) {
    signal?.throwIfAborted();
    const batch = chunks.slice(start, start + embedder.maxBatchSize);
    const result = await embedder.embed(
      batch.map((chunk) => chunk.content),
      { signal, tokenCounts: batch.map((chunk) => chunk.tokenCount) },
    );
    if (result.embeddings.length !== batch.length) {
      throw new Error(`${embedder.id} returned ${result.embeddings.length} embeddings for ${batch.length} chunks`);
    }
    batch.forEach((chunk, index) => embedded.push({ ...chunk, embedding: result.embeddings[index] ?? [] }));
    usages.push(result.usage);
  }
  return { chunks: embedded, usage: sumUsage(usages), metadata: prepared.metadata };
}

/** Parse, chunk and embed one file on this thread: everything ingestion does except storing the result. */
export async function processDocument(
  file: { kind: FileKind; bytes: Uint8Array },
  chunking: ChunkingOptions,
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<ProcessedDocument> {
  return embedChunks(await prepareDocument(file, chunking), embedder, signal);
}
