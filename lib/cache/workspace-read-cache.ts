import { LruMap } from "./lru-map";

/**
 * What tells this process that a workspace's cached reads changed: the run bus satisfies it (its
 * LISTEN connection hears the triggers' `cache` notifications, and says when it was lost and when
 * it listens again).
 */
export interface CacheInvalidationFeed {
  subscribe(listener: (signal: { kind: string }) => void): () => void;
  onLost(listener: () => void): () => void;
  onResync(listener: () => void): () => void;
}

/** The notification a change sends (prisma/migrations/*_cache_generations): the workspace's generation after it. */
export interface CacheChangedSignal {
  kind: "cache";
  workspaceId: string;
  generation: number;
}

function isCacheChanged(signal: { kind: string }): signal is CacheChangedSignal {
  return (
    signal.kind === "cache" &&
    typeof (signal as CacheChangedSignal).workspaceId === "string" &&
    typeof (signal as CacheChangedSignal).generation === "number"
  );
}

export interface WorkspaceReadCacheOptions {
  /** Reads the workspace's generation from the database now (0 before its first change). */
  generationOf(workspaceId: string): Promise<number>;
  /** How many values (and as many workspaces' generations) are kept; the least recently used go first. */
  maxEntries?: number;
}

interface Entry {
  /** The workspace's generation known before the value was read: never newer than the value. */
  generation: number;
  value: unknown;
}

/** How often reads were answered from memory, read from the database, or passed by (not following changes). */
export interface ReadCacheCounts {
  hits: number;
  misses: number;
  bypassed: number;
}

const DEFAULT_MAX_ENTRIES = 2_000;

/**
 * One process's cache of what runs read per workspace and rarely changes. Every change to such
 * data bumps the workspace's generation in the changing transaction (a trigger), which notifies
 * every process once committed. A value is kept with the generation known when it was read and
 * served only while that is still the known one, so it is never newer than the value.
 *
 * Freshness: a request authenticated with an API key reads the workspace's generation with the
 * key itself (observe), so after a committed change the next such request on any process skips
 * the older values without waiting for the notification. Other paths rely on the notification,
 * or on `changed` when the change was made here. While the listening connection is lost nothing
 * is served or kept (a notification may be missed), and what was known is dropped.
 */
export class WorkspaceReadCache {
  private readonly entries: LruMap<string, Entry>;
  private readonly generations: LruMap<string, number>;
  private following = false;
  /** Moves on whenever knowledge is dropped, so a read begun before does not store what it read. */
  private epoch = 0;
  readonly counts: ReadCacheCounts = { hits: 0, misses: 0, bypassed: 0 };

  constructor(private readonly options: WorkspaceReadCacheOptions) {
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.entries = new LruMap(maxEntries);
    this.generations = new LruMap(maxEntries);
  }

  /** Whether values are served: only while changes are heard. */
  get serving(): boolean {
    return this.following;
  }

  /**
   * Serves the value under `key` of the workspace if it is as new as the workspace's known
   * generation, else reads it with `load` (and keeps it). A failed load keeps nothing.
   */
  async read<T>(workspaceId: string, key: string, load: () => Promise<T>): Promise<T> {
    if (!this.following) {
      this.counts.bypassed += 1;
      return load();
    }
    const epoch = this.epoch;
    const id = `${workspaceId}\u0000${key}`;
    let generation = this.generations.get(workspaceId);
    if (generation === undefined) {
      generation = await this.options.generationOf(workspaceId);
      // Dropped meanwhile (a change here, the connection lost): this read goes to the database and keeps nothing.
      if (epoch !== this.epoch) return load();
      this.observe(workspaceId, generation);
    }
    const entry = this.entries.get(id);
    if (entry && entry.generation === generation) {
      this.counts.hits += 1;
      return entry.value as T;
    }
    this.counts.misses += 1;
    const value = await load();
    if (this.following && epoch === this.epoch) this.entries.set(id, { generation, value });
    return value;
  }

  /** The workspace's generation as this process knows it (undefined: read on the next read). */
  knownGeneration(workspaceId: string): number | undefined {
    return this.generations.get(workspaceId);
  }

  /** The workspace's generation as just read from the database (with an API key) or heard in a notification. */
  observe(workspaceId: string, generation: number): void {
    if (!this.following) return;
    const known = this.generations.get(workspaceId);
    if (known === undefined || generation > known) this.generations.set(workspaceId, generation);
  }

  /**
   * A change to the workspace's cached data was committed by this process: its values go at once,
   * before the notification comes back, and its generation is read again on the next read.
   */
  changed(workspaceId: string): void {
    this.epoch += 1;
    this.generations.delete(workspaceId);
    const prefix = `${workspaceId}\u0000`;
    this.entries.deleteWhere((key) => key.startsWith(prefix));
  }

  /** Runs a change of the workspace's cached data and then `changed`, whether it succeeded or not (it may have committed). */
  async changing<T>(workspaceId: string, change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.changed(workspaceId);
    }
  }

  /** Listens to the feed's notifications from now on: values are served while it is connected. */
  follow(feed: CacheInvalidationFeed): () => void {
    const unsubscribe = [
      feed.subscribe((signal) => {
        if (isCacheChanged(signal)) this.observe(signal.workspaceId, signal.generation);
      }),
      feed.onLost(() => this.stopServing()),
      // Listening again: what was missed meanwhile is unknown, so every generation is read afresh.
      feed.onResync(() => this.startServing()),
    ];
    this.startServing();
    return () => {
      for (const stop of unsubscribe) stop();
      this.stopServing();
    };
  }

  private startServing(): void {
    this.drop();
    this.following = true;
  }

  private stopServing(): void {
    this.following = false;
    this.drop();
  }

  private drop(): void {
    this.epoch += 1;
    this.entries.clear();
    this.generations.clear();
  }
}
