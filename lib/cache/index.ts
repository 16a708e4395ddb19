import "server-only";
/** The per-process cache of what runs read and rarely changes (README.md). */
export { LruMap } from "./lru-map";
export { WorkspaceReadCache } from "./workspace-read-cache";
export type {
  CacheChangedSignal,
  CacheInvalidationFeed,
  ReadCacheCounts,
  WorkspaceReadCacheOptions,
} from "./workspace-read-cache";
export { withReadCache } from "./cached-reads";
export type { CachedRepositories } from "./cached-reads";
export { readCacheGeneration } from "./cache-generation";
export { processReadCache } from "./process-read-cache";
