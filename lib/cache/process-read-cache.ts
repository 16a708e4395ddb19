import "server-only";
import { getPrisma } from "@/lib/db";
import { readCacheGeneration } from "./cache-generation";
import { WorkspaceReadCache } from "./workspace-read-cache";

const globalCache = globalThis as typeof globalThis & { __trellisReadCache?: WorkspaceReadCache };

/**
 * This process's read cache (kept on globalThis, like the runtime, across Next's dev reloads). It
 * serves nothing until it follows the run bus (lib/runtime/start-runs.ts), so scripts and tests
 * that never start the bus read the database as before.
 */
export function processReadCache(): WorkspaceReadCache {
  globalCache.__trellisReadCache ??= new WorkspaceReadCache({
    generationOf: (workspaceId) => readCacheGeneration(getPrisma(), workspaceId),
  });
  return globalCache.__trellisReadCache;
}
