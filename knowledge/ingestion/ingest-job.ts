import { errorInfo, isTrellisError } from "@/core";
import type { ErrorCode } from "@/contract";
import { createHashEmbedder } from "../embedders/hash-embedder";
import type { ChunkingOptions, FileKind } from "../types";
import { embedChunks, prepareDocument, type PreparedDocument, type ProcessedDocument } from "./process-document";

/**
 * One document's work as an ingestion thread does it (ingest-thread.mjs loads this module). Only
 * plain data crosses the thread boundary: errors travel as code, message and retryable flag.
 */

export interface IngestJob {
  kind: FileKind;
  bytes: Uint8Array;
  chunking: ChunkingOptions;
  /**
   * Embed with the offline hash embedder here as well: at 10 MB its hashing costs about half a
   * second of CPU, which would stall the server in slices of a fifth of a second.
   */
  embedOffline: boolean;
}

export type IngestJobResult = { prepared: PreparedDocument } | { processed: ProcessedDocument };

export interface IngestJobFailure {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

export async function runIngestJob(job: IngestJob): Promise<IngestJobResult> {
  const prepared = await prepareDocument({ kind: job.kind, bytes: job.bytes }, job.chunking);
  if (!job.embedOffline) return { prepared };
  return { processed: await embedChunks(prepared, createHashEmbedder()) };
}

export function describeFailure(error: unknown): IngestJobFailure {
  return { ...errorInfo(error), retryable: isTrellisError(error) && error.retryable };
}
