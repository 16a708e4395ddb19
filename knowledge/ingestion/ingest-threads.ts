import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { OFFLINE_EMBEDDER_ID, isErrorCode } from "@/contract";
import { TrellisError } from "@/core";
import type { Embedder } from "../embedders/embedder";
import type { ChunkingOptions, FileKind } from "../types";
import type { IngestJob, IngestJobFailure, IngestJobResult } from "./ingest-job";
import { embedChunks, type ProcessedDocument } from "./process-document";

/** The setting a budget comes from, named when a document runs out of it. */
export const INGEST_TIME_BUDGET_SETTING = "TRELLIS_INGEST_TIME_BUDGET_MS";
export const DEFAULT_INGEST_TIME_BUDGET_MS = 120_000;

export interface IngestThreadOptions {
  /** Time one document may spend in its thread (parsing, chunking, offline embedding); the thread is then terminated. */
  timeBudgetMs?: number;
  /** Heap of one thread; a document that needs more fails instead of swelling the server. Default 1 GB. */
  maxMemoryMb?: number;
  /** How long a thread waits for the next document before it ends. Default 30 s. */
  idleMs?: number;
  /** Where ingest-thread.mjs lives, when bundling moved it. */
  workerUrl?: URL;
}

type ThreadMessage =
  | { type: "ready" }
  | { type: "done"; id: number; ok: true; result: IngestJobResult }
  | { type: "done"; id: number; ok: false; error: IngestJobFailure };

const START_TIMEOUT_MS = 60_000;

/**
 * The thread loads the TypeScript pipeline beside it (ingest-job.ts), so it runs from the source
 * tree under the working directory (where `npm start`, `npm run worker` and the tests run). A
 * production build copies both files into .next/server/assets under hashed names, where the
 * pipeline's imports cannot resolve: that copy is used only when there is no source tree.
 */
function resolveWorkerUrl(explicit: URL | undefined): URL {
  if (explicit) return explicit;
  const fromEnvironment = process.env.TRELLIS_INGEST_WORKER;
  if (fromEnvironment) return pathToFileURL(/*turbopackIgnore: true*/ fromEnvironment);
  const inSourceTree = path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "knowledge",
    "ingestion",
    "ingest-thread.mjs",
  );
  if (existsSync(/*turbopackIgnore: true*/ inSourceTree)) return pathToFileURL(/*turbopackIgnore: true*/ inSourceTree);
  return new URL(/*turbopackIgnore: true*/ "./ingest-thread.mjs", import.meta.url);
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** One worker thread, taking one document at a time. */
class IngestThread {
  readonly ready: Promise<void>;
  private current: { id: number; resolve(result: IngestJobResult): void; reject(error: Error): void } | undefined;
  private nextId = 0;
  private dead = false;
  private readonly worker: Worker;
  idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(url: URL, maxMemoryMb: number) {
    // Reflect.construct keeps bundlers from treating this as a worker entry to bundle (as the sandbox does).
    this.worker = Reflect.construct(Worker, [
      url,
      { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb } },
    ]);
    let started: () => void = () => {};
    let failedToStart: (error: Error) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failedToStart = reject;
    });
    const fail = (error: Error) => {
      this.dead = true;
      failedToStart(error);
      const job = this.current;
      this.current = undefined;
      job?.reject(error);
    };
    this.worker.on("message", (message: ThreadMessage) => {
      if (message.type === "ready") return started();
      const job = this.current;
      if (!job || job.id !== message.id) return;
      this.current = undefined;
      if (message.ok) job.resolve(message.result);
      else
        job.reject(
          new TrellisError(
            isErrorCode(message.error.code) ? message.error.code : "internal_error",
            message.error.message,
            {
              retryable: message.error.retryable,
            },
          ),
        );
    });
    this.worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY")
        fail(new TrellisError("too_large", `Processing ran out of memory (at most ${maxMemoryMb} MB per document)`));
      else
        fail(new TrellisError("internal_error", `The ingestion thread failed: ${error.message}`, { retryable: true }));
    });
    this.worker.on("exit", (code) =>
      fail(new TrellisError("internal_error", `The ingestion thread stopped (exit code ${code})`, { retryable: true })),
    );
  }

  get alive(): boolean {
    return !this.dead;
  }

  run(job: IngestJob): Promise<IngestJobResult> {
    return new Promise<IngestJobResult>((resolve, reject) => {
      const id = ++this.nextId;
      this.current = { id, resolve, reject };
      this.worker.ref();
      this.worker.postMessage({ id, job }, [job.bytes.buffer as ArrayBuffer]);
    });
  }

  /** Lets the process exit while this thread waits for work. */
  park(): void {
    this.worker.unref();
  }

  terminate(): Promise<number> {
    this.dead = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    return this.worker.terminate();
  }
}

/**
 * Runs the CPU-heavy part of ingestion in worker threads, one document per thread at a time, so
 * the server keeps answering while a large file is chunked. A thread stays for the next document
 * for a while; a document that passes its time budget has its thread terminated and fails with a
 * message naming the budget and its setting. Embedding through a provider (network, not CPU)
 * stays on the calling thread and outside the budget.
 */
export class IngestThreads {
  private readonly timeBudgetMs: number;
  private readonly maxMemoryMb: number;
  private readonly idleMs: number;
  private readonly url: URL;
  private readonly idle: IngestThread[] = [];
  private readonly busy = new Set<IngestThread>();

  constructor(options: IngestThreadOptions = {}) {
    this.timeBudgetMs = options.timeBudgetMs ?? DEFAULT_INGEST_TIME_BUDGET_MS;
    this.maxMemoryMb = options.maxMemoryMb ?? 1024;
    this.idleMs = options.idleMs ?? 30_000;
    this.url = resolveWorkerUrl(options.workerUrl);
  }

  /** Parses, chunks and embeds one file; the same result as processDocument, computed off this thread. */
  async process(
    file: { kind: FileKind; bytes: Uint8Array },
    chunking: ChunkingOptions,
    embedder: Embedder,
    signal?: AbortSignal,
  ): Promise<ProcessedDocument> {
    const embedOffline = embedder.id === OFFLINE_EMBEDDER_ID;
    // A copy of its own: the caller's bytes may be a view into a larger buffer, which must not be moved.
    const result = await this.run({ kind: file.kind, bytes: file.bytes.slice(), chunking, embedOffline }, signal);
    if ("processed" in result) return result.processed;
    return embedChunks(result.prepared, embedder, signal);
  }

  /** Ends every thread; documents in progress fail as cancelled. */
  async close(): Promise<void> {
    const threads = [...this.idle.splice(0), ...this.busy];
    this.busy.clear();
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  private async run(job: IngestJob, signal: AbortSignal | undefined): Promise<IngestJobResult> {
    signal?.throwIfAborted();
    const thread = this.take();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      const stop = (error: Error) => {
        void thread.terminate();
        reject(error);
      };
      timer = setTimeout(
        () =>
          stop(
            new TrellisError(
              "internal_error",
              `The ingestion thread did not start within ${duration(START_TIMEOUT_MS)}`,
            ),
          ),
        START_TIMEOUT_MS,
      );
      onAbort = () => stop(new TrellisError("cancelled", "Processing stopped: the server is shutting down"));
      signal?.addEventListener("abort", onAbort, { once: true });
      void thread.ready.then(
        () => {
          clearTimeout(timer);
          // The budget counts from the thread having the document, not from the thread starting.
          timer = setTimeout(
            () =>
              stop(
                new TrellisError(
                  "timeout",
                  `Processing took longer than its time budget of ${duration(this.timeBudgetMs)} per document and was stopped (${INGEST_TIME_BUDGET_SETTING}=${this.timeBudgetMs})`,
                ),
              ),
            this.timeBudgetMs,
          );
        },
        () => {},
      );
    });
    try {
      await Promise.race([thread.ready, stopped]);
      return await Promise.race([thread.run(job), stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      this.release(thread);
    }
  }

  private take(): IngestThread {
    let thread = this.idle.pop();
    while (thread && !thread.alive) thread = this.idle.pop();
    if (thread?.idleTimer) clearTimeout(thread.idleTimer);
    thread ??= new IngestThread(this.url, this.maxMemoryMb);
    this.busy.add(thread);
    return thread;
  }

  private release(thread: IngestThread): void {
    if (!this.busy.delete(thread) || !thread.alive) return;
    thread.park();
    thread.idleTimer = setTimeout(() => {
      const index = this.idle.indexOf(thread);
      if (index >= 0) this.idle.splice(index, 1);
      void thread.terminate();
    }, this.idleMs);
    thread.idleTimer.unref?.();
    this.idle.push(thread);
  }
}
