import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { diskReserveBytes, diskSpaceOfSync, formatBytes } from "../system/disk-space";
import { makeSocketDir, removeSocketDir, socketUrl, type EmbeddedServer, type PGliteTrouble } from "./embedded-server";
import { processLogger } from "@/lib/observability";

type ThreadMessage =
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "closed"; error?: string }
  | { type: "pong" }
  | ({ type: "trouble" } & PGliteTrouble);

/**
 * The thread file runs from the source tree under the working directory (where `npm start`,
 * `npm run worker` and the tests run): a production build copies it into .next under a hashed
 * name, where its TypeScript import cannot resolve. That copy is used only without a source tree.
 */
function threadUrl(): URL {
  const inSourceTree = path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "db", "embedded-thread.mjs");
  if (existsSync(/*turbopackIgnore: true*/ inSourceTree)) return pathToFileURL(/*turbopackIgnore: true*/ inSourceTree);
  return new URL(/*turbopackIgnore: true*/ "./embedded-thread.mjs", import.meta.url);
}

export interface EmbeddedThreadOptions {
  maxConnections?: number;
  /** Space kept free on the PGlite files' disk; diskReserveBytes() when left out. */
  reserveBytes?: number;
  /** How long the thread may leave pings unanswered, with its disk short or after trouble, before it is replaced. */
  stallMs?: number;
  /** How often the thread is pinged and its disk looked at. */
  checkEveryMs?: number;
}

/** One PGlite thread and what the supervisor knows of it. */
class PGliteThread {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  started = false;
  exited = false;
  closing = false;
  /** Set once PGlite reported a full disk or threw: it is replaced as soon as the disk has room. */
  trouble: PGliteTrouble | undefined;
  lastAnswer = Date.now();
  readonly closed: Promise<string | undefined>;

  constructor(databaseDir: string, socketDir: string, maxConnections: number, reserveBytes: number) {
    // Reflect.construct keeps bundlers from treating this as a worker entry to bundle (as the sandbox does).
    this.worker = Reflect.construct(Worker, [
      threadUrl(),
      { workerData: { databaseDir, socketDir, maxConnections, reserveBytes }, execArgv: [] },
    ]);
    let closed: (error?: string) => void = () => {};
    this.closed = new Promise((resolve) => (closed = resolve));
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on("message", (message: ThreadMessage) => {
        this.lastAnswer = Date.now();
        if (message.type === "ready") {
          this.started = true;
          resolve();
        } else if (message.type === "failed") {
          reject(new Error(`The embedded database in ${databaseDir} could not be opened: ${message.message}`));
        } else if (message.type === "trouble") {
          this.trouble ??= { kind: message.kind, message: message.message };
        } else if (message.type === "closed") {
          closed(message.error);
        }
      });
      this.worker.on("error", (error) => {
        if (!this.started) return reject(new Error(`The embedded database's thread failed to start: ${error.message}`));
        processLogger().error({ err: error }, "the embedded database's thread stopped");
      });
      this.worker.on("exit", (code) => {
        this.exited = true;
        closed();
        if (!this.started)
          reject(new Error(`The embedded database's thread ended (code ${code}) before serving ${databaseDir}`));
        else if (!this.closing)
          processLogger().error(
            `the embedded database's thread ended (code ${code}); it is restarted once its disk has room`,
          );
      });
    });
    // Nobody may await `ready` (Prisma awaits it only on first use); the rejection still reaches those who do.
    this.ready.catch(() => {});
  }

  ping(): void {
    if (!this.exited) this.worker.postMessage({ type: "ping" });
  }

  async terminate(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }
}

/**
 * Serves the PGlite files in `databaseDir` from a worker thread (embedded-thread.mjs). PGlite runs
 * PostgreSQL synchronously in WebAssembly, so on the server's own thread every query stalls every
 * request for as long as it runs (a 10 MB document's chunks held health answers for 200 ms and more);
 * in a thread the server only exchanges protocol bytes with it over the socket.
 *
 * PGlite does not recover from a write that failed for lack of space (embedded-disk-guard.ts), so
 * the thread is supervised: once PGlite reports a full disk or throws, or stops answering while its
 * disk is short, the thread is ended (its connections fail at once rather than hang) and a new one
 * opens the same files on the same socket as soon as the disk has the reserve free again. The
 * files are consistent (PostgreSQL's WAL), as after a kill -9.
 */
export function serveEmbeddedInThread(databaseDir: string, options: EmbeddedThreadOptions = {}): EmbeddedServer {
  const { maxConnections = 64, reserveBytes = diskReserveBytes(), stallMs = 10_000, checkEveryMs = 1_000 } = options;
  const socketDir = makeSocketDir();
  const start = () => new PGliteThread(databaseDir, socketDir, maxConnections, reserveBytes);
  let current = start();
  let closing: Promise<void> | undefined;
  let replacing = false;
  // A database that fails again as soon as it opens is retried every few seconds, not every check.
  let lastReplaced = 0;
  const REPLACE_AT_MOST_EVERY_MS = 5_000;

  const replace = async (reason: string) => {
    replacing = true;
    lastReplaced = Date.now();
    try {
      const old = current;
      processLogger().error(`restarting the embedded database in ${databaseDir}: ${reason}`);
      if (!old.exited) await old.terminate();
      // A terminated thread leaves its socket file behind; the new server must listen on the same path.
      rmSync(path.join(socketDir, ".s.PGSQL.5432"), { force: true });
      rmSync(path.join(socketDir, ".s.PGSQL.5432.lock"), { force: true });
      if (closing) return;
      current = start();
      await current.ready.then(
        () => processLogger().warn(`the embedded database in ${databaseDir} is serving again`),
        (error: Error) => processLogger().error({ err: error }, "the embedded database did not come back"),
      );
    } finally {
      replacing = false;
    }
  };

  const supervise = () => {
    if (closing || replacing) return;
    const thread = current;
    const { freeBytes } = diskSpaceOfSync(databaseDir);
    const roomy = freeBytes >= reserveBytes;
    const stalled = Date.now() - thread.lastAnswer > stallMs;
    const unhealthy = thread.exited || thread.trouble !== undefined || (stalled && !roomy);
    thread.ping();
    if (!unhealthy) return;
    const why = thread.trouble
      ? thread.trouble.message
      : thread.exited
        ? "its thread ended"
        : "it stopped answering with its disk full";
    if (roomy && Date.now() - lastReplaced >= REPLACE_AT_MOST_EVERY_MS)
      return void replace(`${why}; ${formatBytes(freeBytes)} free again`);
    // A PGlite that met a full disk may hold every later query forever (a failed checkpoint leaves
    // its session half-cleaned): ending it makes them fail now instead of waiting for space.
    if (!roomy && !thread.exited && !thread.closing) {
      processLogger().error(
        `the embedded database in ${databaseDir} stopped (${why}); it restarts by itself once ${formatBytes(reserveBytes)} are free (${formatBytes(freeBytes)} now)`,
      );
      void thread.terminate();
    }
  };

  const ready = current.ready;
  let timer: NodeJS.Timeout | undefined;
  ready.then(
    () => {
      if (closing) return;
      timer = setInterval(supervise, checkEveryMs);
      // The supervisor never keeps a process alive on its own.
      timer.unref();
    },
    () => {},
  );

  return {
    url: socketUrl(socketDir),
    ready,
    close: () =>
      (closing ??= (async () => {
        clearInterval(timer);
        const thread = current;
        try {
          // A thread that never served, or already ended, has nothing to close cleanly.
          const served = await thread.ready.then(
            () => true,
            () => false,
          );
          if (!served || thread.exited) return;
          thread.closing = true;
          thread.worker.postMessage({ type: "close" });
          const error = await thread.closed;
          if (error) throw new Error(`Closing the embedded database failed: ${error}`);
        } finally {
          await thread.worker.terminate();
          removeSocketDir(socketDir);
        }
      })()),
  };
}
