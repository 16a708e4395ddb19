// An ingestion thread: parses, chunks and (offline embedder) embeds documents one at a time, so a
// large or hostile file costs this thread, never the server's event loop. Plain JavaScript because
// worker threads load files with Node's own loader; the pipeline is TypeScript, loaded through
// tsx (a runtime dependency, as `npm run worker` needs it too) with the project's tsconfig paths.
// Messages: ingest-threads.ts.
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

if (!parentPort) throw new Error("ingest-thread.mjs must run as a worker thread");
const port = parentPort;

/** @type {typeof import("./ingest-job.ts")} */
const job = await tsImport("./ingest-job.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../../tsconfig.json", import.meta.url)),
});

port.on("message", (message) => {
  job.runIngestJob(message.job).then(
    (result) => port.postMessage({ type: "done", id: message.id, ok: true, result }),
    (error) => port.postMessage({ type: "done", id: message.id, ok: false, error: job.describeFailure(error) }),
  );
});
port.postMessage({ type: "ready" });
