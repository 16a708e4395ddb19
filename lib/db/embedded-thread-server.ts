import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { makeSocketDir, removeSocketDir, socketUrl, type EmbeddedServer } from "./embedded-server";

type ThreadMessage = { type: "ready" } | { type: "failed"; message: string } | { type: "closed"; error?: string };

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

/**
 * Serves the PGlite files in `databaseDir` from a worker thread (embedded-thread.mjs). PGlite runs
 * PostgreSQL synchronously in WebAssembly, so on the server's own thread every query stalls every
 * request for as long as it runs (a 10 MB document's chunks held health answers for 200 ms and more);
 * in a thread the server only exchanges protocol bytes with it over the socket.
 */
export function serveEmbeddedInThread(databaseDir: string, { maxConnections = 64 }: { maxConnections?: number } = {}): EmbeddedServer {
  const socketDir = makeSocketDir();
  // Reflect.construct keeps bundlers from treating this as a worker entry to bundle (as the sandbox does).
  const worker: Worker = Reflect.construct(Worker, [threadUrl(), { workerData: { databaseDir, socketDir, maxConnections }, execArgv: [] }]);
  let started = false;
  let closing: Promise<void> | undefined;
  let closed: (error?: string) => void = () => {};
  const closedByThread = new Promise<string | undefined>((resolve) => (closed = resolve));

  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (message: ThreadMessage) => {
      if (message.type === "ready") {
        started = true;
        resolve();
      } else if (message.type === "failed") {
        reject(new Error(`The embedded database in ${databaseDir} could not be opened: ${message.message}`));
      } else {
        closed(message.error);
      }
    });
    worker.on("error", (error) => {
      if (!started) return reject(new Error(`The embedded database's thread failed to start: ${error.message}`));
      // Every query fails from now on; the log says why rather than leaving only connection errors.
      console.error(`The embedded database's thread stopped: ${error.message}`);
    });
    worker.on("exit", (code) => {
      closed();
      if (!started) reject(new Error(`The embedded database's thread ended (code ${code}) before serving ${databaseDir}`));
      else if (!closing) console.error(`The embedded database's thread ended (code ${code}); queries will fail until the server restarts`);
    });
  });
  // Nobody may await `ready` (Prisma awaits it only on first use); the rejection still reaches those who do.
  ready.catch(() => {});

  return {
    url: socketUrl(socketDir),
    ready,
    close: () =>
      (closing ??= (async () => {
        try {
          // A thread that never served has nothing to close cleanly: it is terminated.
          if (
            !(await ready.then(
              () => true,
              () => false,
            ))
          )
            return;
          worker.postMessage({ type: "close" });
          const error = await closedByThread;
          if (error) throw new Error(`Closing the embedded database failed: ${error}`);
        } finally {
          await worker.terminate();
          removeSocketDir(socketDir);
        }
      })()),
  };
}
