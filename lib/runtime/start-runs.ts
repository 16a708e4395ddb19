import "server-only";
import { getDatabase } from "@/lib/db";
import { startRunWorkers, type RunWorkers } from "@/lib/runs/durable/run-workers";
import { workerConfigFrom } from "@/lib/runs/durable/worker-config";
import { getRuntime } from "./runtime";

const globalCache = globalThis as typeof globalThis & { __trellisRunWorkers?: Promise<RunWorkers> };

/**
 * Joins this process to the durable run queue (once; Next's dev reloads reuse it): as a worker
 * when TRELLIS_WORKER is on, else only to hand runs over. Called at start-up before serving.
 */
export function startRuns(): Promise<RunWorkers> {
  globalCache.__trellisRunWorkers ??= (async () => {
    const database = getDatabase();
    await database.ready;
    const url = database.url;
    if (!url) throw new Error("The database has no connection string for the run queue");
    const runtime = getRuntime();
    return startRunWorkers({
      runs: runtime.runs,
      repositories: runtime.repositories,
      config: workerConfigFrom((name) => process.env[name]),
      url,
      singleProcess: database.backend === "embedded",
    });
  })();
  return globalCache.__trellisRunWorkers;
}
