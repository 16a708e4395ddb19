// An import thread: converts and validates imported files one at a time, so a large or hostile
// file costs this thread, never the server's event loop. Plain JavaScript because worker threads
// load files with Node's own loader; the importers are TypeScript, loaded through tsx (a runtime
// dependency, as `npm run worker` needs it too) with the project's tsconfig paths. The thread is
// started with `--conditions=react-server`, as the worker process is, so the server modules load.
// Messages: import-threads.ts.
import { fileURLToPath } from "node:url";
import { parentPort } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

if (!parentPort) throw new Error("import-thread.mjs must run as a worker thread");
const port = parentPort;

/** @type {typeof import("./import-job.ts")} */
const job = await tsImport("./import-job.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../../../tsconfig.json", import.meta.url)),
});

port.on("message", (message) => {
  try {
    port.postMessage({ type: "done", id: message.id, ok: true, result: job.runImportJob(message.job) });
  } catch (error) {
    port.postMessage({ type: "done", id: message.id, ok: false, error: job.describeImportFailure(error) });
  }
});
port.postMessage({ type: "ready" });
