// The embedded database's thread: opens PGlite on DATA_DIR's files and serves it on the private
// socket the main thread made, so PostgreSQL's work (a large insert, a slow query) runs here and
// never stalls the server's event loop. Plain JavaScript because worker threads load files with
// Node's own loader; the socket server is TypeScript, loaded through tsx (as ingest-thread.mjs does).
// Messages: embedded-thread-server.ts.
import { PGlite } from "@electric-sql/pglite";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

if (!parentPort) throw new Error("embedded-thread.mjs must run as a worker thread");
const port = parentPort;

/** @type {typeof import("./embedded-server.ts")} */
const embedded = await tsImport("./embedded-server.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)),
});

const { databaseDir, socketDir, maxConnections, reserveBytes } = workerData;
const db = new PGlite(databaseDir);
const server = embedded.serveEmbedded(db, {
  socketDir,
  maxConnections,
  disk: { folder: databaseDir, reserveBytes },
  onTrouble: (trouble) => port.postMessage({ type: "trouble", ...trouble }),
});

port.on("message", (message) => {
  // Answered only while this thread's event loop is free: PGlite spinning in WebAssembly leaves pings unanswered.
  if (message.type === "ping") return port.postMessage({ type: "pong" });
  if (message.type !== "close") return;
  server
    .close()
    .then(() => db.close())
    .then(
      () => port.postMessage({ type: "closed" }),
      (error) => port.postMessage({ type: "closed", error: String(error?.message ?? error) }),
    )
    .finally(() => port.close());
});

server.ready.then(
  () => port.postMessage({ type: "ready" }),
  (error) => {
    port.postMessage({ type: "failed", message: String(error?.message ?? error) });
    port.close();
  },
);
