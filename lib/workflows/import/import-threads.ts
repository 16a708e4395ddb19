import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { isErrorCode } from "@/contract";
import { RequestError } from "@/lib/http/errors";
import type { ImportJob, ImportJobFailure, ImportJobResult } from "./import-job";

/** The setting the budget comes from, named when an import runs out of it. */
export const IMPORT_TIME_BUDGET_SETTING = "TRELLIS_IMPORT_TIME_BUDGET_MS";
export const DEFAULT_IMPORT_TIME_BUDGET_MS = 20_000;
/** Imports converting at once; more wait in line, so parallel uploads cannot start a thread (and a heap) each. */
export const IMPORT_THREADS = 2;
const THREAD_MEMORY_MB = 512;
const IDLE_MS = 30_000;
const START_TIMEOUT_MS = 60_000;

type ThreadMessage =
  | { type: "ready" }
  | { type: "done"; id: number; ok: true; result: ImportJobResult }
  | { type: "done"; id: number; ok: false; error: ImportJobFailure };

/** import-thread.mjs in the source tree under the working directory (as ingestion threads find theirs, see ingest-threads.ts). */
function workerUrl(): URL {
  const fromEnvironment = process.env.TRELLIS_IMPORT_WORKER;
  if (fromEnvironment) return pathToFileURL(/*turbopackIgnore: true*/ fromEnvironment);
  const inSourceTree = path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    "lib",
    "workflows",
    "import",
    "import-thread.mjs",
  );
  if (existsSync(/*turbopackIgnore: true*/ inSourceTree)) return pathToFileURL(/*turbopackIgnore: true*/ inSourceTree);
  return new URL(/*turbopackIgnore: true*/ "./import-thread.mjs", import.meta.url);
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

export function importTimeBudgetFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_IMPORT_TIME_BUDGET_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1)
    throw new Error(`${IMPORT_TIME_BUDGET_SETTING} must be a whole number of milliseconds from 1, got '${value}'`);
  return ms;
}

/** One worker thread taking one import at a time. */
class ImportThread {
  readonly ready: Promise<void>;
  readonly ended: Promise<Error>;
  private pending: { id: number; resolve(result: ImportJobResult): void; reject(error: Error): void } | undefined;
  private nextId = 0;
  private readonly worker: Worker;
  dead = false;
  idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(url: URL) {
    // Reflect.construct keeps bundlers from treating this as a worker entry to bundle (as the sandbox does).
    this.worker = Reflect.construct(Worker, [
      url,
      { execArgv: ["--conditions=react-server"], resourceLimits: { maxOldGenerationSizeMb: THREAD_MEMORY_MB } },
    ]) as Worker;
    let started = () => {};
    this.ready = new Promise<void>((resolve) => (started = resolve));
    let end: (error: Error) => void = () => {};
    this.ended = new Promise<Error>((resolve) => (end = resolve));
    const fail = (error: Error) => {
      this.dead = true;
      end(error);
      this.pending?.reject(error);
      this.pending = undefined;
    };
    this.worker.on("message", (message: ThreadMessage) => {
      if (message.type === "ready") return started();
      const job = this.pending;
      if (!job || job.id !== message.id) return;
      this.pending = undefined;
      if (message.ok) job.resolve(message.result);
      else
        job.reject(
          new RequestError(
            isErrorCode(message.error.code) ? message.error.code : "internal_error",
            message.error.message,
            message.error.details,
          ),
        );
    });
    this.worker.on("error", (error: Error & { code?: string }) =>
      fail(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? new RequestError(
              "too_large",
              `Converting the file ran out of memory (at most ${THREAD_MEMORY_MB} MB per import).`,
              [{ path: "file", message: `over ${THREAD_MEMORY_MB} MB while converting` }],
            )
          : new RequestError("internal_error", `The import thread failed: ${error.message}`),
      ),
    );
    this.worker.on("exit", (code) =>
      fail(new RequestError("internal_error", `The import thread stopped (exit code ${code})`)),
    );
  }

  run(job: ImportJob): Promise<ImportJobResult> {
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.pending = { id, resolve, reject };
      this.worker.ref();
      this.worker.postMessage({ id, job });
    });
  }

  park(): void {
    this.worker.unref();
  }

  terminate(): Promise<number> {
    this.dead = true;
    clearTimeout(this.idleTimer);
    return this.worker.terminate();
  }
}

/**
 * Converts imported files in worker threads with a time budget: an import still converting when
 * its budget ends has its thread terminated and is refused with 413 naming the budget and its
 * setting. The server's own thread only receives the result, so health and every other request
 * keep answering while a large file converts. A thread stays for the next import for a while.
 */
export class ImportThreads {
  private readonly idle: ImportThread[] = [];
  private readonly waiting: Array<() => void> = [];
  private running = 0;

  constructor(
    readonly timeBudgetMs: number = importTimeBudgetFrom(process.env[IMPORT_TIME_BUDGET_SETTING]),
    private readonly url: URL = workerUrl(),
  ) {}

  async run(job: ImportJob): Promise<ImportJobResult> {
    if (this.running >= IMPORT_THREADS) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    const thread = this.take();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outOfTime = (message: string, budgetMs: number) =>
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void thread.terminate();
          reject(
            new RequestError("too_large", message, [{ path: "file", message: `not converted within ${budgetMs} ms` }]),
          );
        }, budgetMs);
      });
    try {
      await Promise.race([
        thread.ready,
        thread.ended.then((error) => Promise.reject(error)),
        outOfTime("The import thread did not start in time.", START_TIMEOUT_MS),
      ]);
      clearTimeout(timer);
      // The budget counts from the thread having the file, not from the thread starting.
      return await Promise.race([
        thread.run(job),
        outOfTime(
          `The file took longer than the import's time budget of ${seconds(this.timeBudgetMs)} to convert and check, and was stopped (${IMPORT_TIME_BUDGET_SETTING}=${this.timeBudgetMs}).`,
          this.timeBudgetMs,
        ),
      ]);
    } finally {
      clearTimeout(timer);
      this.release(thread);
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((thread) => thread.terminate()));
  }

  private take(): ImportThread {
    let thread = this.idle.pop();
    while (thread?.dead) thread = this.idle.pop();
    if (thread) clearTimeout(thread.idleTimer);
    return thread ?? new ImportThread(this.url);
  }

  private release(thread: ImportThread): void {
    if (thread.dead) return;
    thread.park();
    thread.idleTimer = setTimeout(() => {
      this.idle.splice(this.idle.indexOf(thread), 1);
      void thread.terminate();
    }, IDLE_MS);
    thread.idleTimer.unref();
    this.idle.push(thread);
  }
}

let shared: ImportThreads | undefined;

/** The process's import threads, made at the first large import. */
export function sharedImportThreads(): ImportThreads {
  shared ??= new ImportThreads();
  return shared;
}
