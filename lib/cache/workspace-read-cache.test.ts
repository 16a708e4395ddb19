import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { WorkspaceReadCache, type CacheInvalidationFeed } from "./workspace-read-cache";

/** A bus as the cache sees it, driven by the test: notifications, a lost connection, listening again. */
class FeedUnderTest implements CacheInvalidationFeed {
  private readonly emitter = new EventEmitter();
  subscribe(listener: (signal: { kind: string }) => void) {
    this.emitter.on("signal", listener);
    return () => this.emitter.off("signal", listener);
  }
  onLost(listener: () => void) {
    this.emitter.on("lost", listener);
    return () => this.emitter.off("lost", listener);
  }
  onResync(listener: () => void) {
    this.emitter.on("resync", listener);
    return () => this.emitter.off("resync", listener);
  }
  changed(workspaceId: string, generation: number) {
    this.emitter.emit("signal", { kind: "cache", workspaceId, generation });
  }
  lose() {
    this.emitter.emit("lost");
  }
  resync() {
    this.emitter.emit("resync");
  }
}

/** The "database": a value and its workspace generation, as a trigger keeps them. */
function store() {
  const state = { value: "v1", generation: 0, reads: 0, generationReads: 0 };
  return {
    state,
    commit(value: string) {
      state.value = value;
      state.generation += 1;
    },
    load: async () => {
      state.reads += 1;
      return state.value;
    },
    generationOf: async () => {
      state.generationReads += 1;
      return state.generation;
    },
  };
}

function following() {
  const db = store();
  const feed = new FeedUnderTest();
  const cache = new WorkspaceReadCache({ generationOf: db.generationOf });
  cache.follow(feed);
  return { db, feed, cache, read: () => cache.read("w", "value", db.load) };
}

describe("WorkspaceReadCache", () => {
  it("serves nothing until it follows a feed", async () => {
    const db = store();
    const cache = new WorkspaceReadCache({ generationOf: db.generationOf });
    await cache.read("w", "value", db.load);
    await cache.read("w", "value", db.load);
    expect(db.state.reads).toBe(2);
    expect(cache.counts.bypassed).toBe(2);
  });

  it("reads once, then serves from memory while the generation stays", async () => {
    const { db, read } = following();
    expect(await read()).toBe("v1");
    expect(await read()).toBe("v1");
    expect(db.state.reads).toBe(1);
    expect(db.state.generationReads).toBe(1);
  });

  it("reads again once a newer generation is observed (an API key's read) or heard (a notification)", async () => {
    const { db, feed, cache, read } = following();
    await read();
    db.commit("v2");
    cache.observe("w", db.state.generation);
    expect(await read()).toBe("v2");
    db.commit("v3");
    feed.changed("w", db.state.generation);
    expect(await read()).toBe("v3");
    // An older generation observed late (a read that began before the change) brings nothing back.
    cache.observe("w", 1);
    expect(await read()).toBe("v3");
    expect(db.state.reads).toBe(3);
  });

  it("drops a workspace's values at once on a change made here, and a read begun before keeps nothing", async () => {
    const { db, cache, read } = following();
    await read();
    let release!: () => void;
    const slowLoad = async () => {
      const value = db.state.value;
      await new Promise<void>((resolve) => (release = resolve));
      return value;
    };
    const begun = cache.read("w", "slow", slowLoad);
    await cache.changing("w", async () => db.commit("v2"));
    release();
    expect(await begun).toBe("v1");
    expect(await read()).toBe("v2");
    const reads = db.state.reads;
    expect(await cache.read("w", "slow", db.load)).toBe("v2");
    expect(db.state.reads).toBe(reads + 1);
  });

  it("keeps other workspaces' values when one changes", async () => {
    const { db, cache } = following();
    await cache.read("a", "value", db.load);
    await cache.read("b", "value", db.load);
    cache.changed("a");
    await cache.read("b", "value", db.load);
    expect(db.state.reads).toBe(2);
  });

  it("serves nothing while the feed's connection is lost, and reads every generation afresh once it listens again", async () => {
    const { db, feed, cache, read } = following();
    await read();
    feed.lose();
    expect(cache.serving).toBe(false);
    db.commit("v2"); // its notification is missed
    expect(await read()).toBe("v2");
    expect(await read()).toBe("v2");
    expect(db.state.reads).toBe(3);
    feed.resync();
    expect(cache.serving).toBe(true);
    const generationReads = db.state.generationReads;
    expect(await read()).toBe("v2");
    expect(await read()).toBe("v2");
    expect(db.state.generationReads).toBe(generationReads + 1);
    expect(db.state.reads).toBe(4);
  });

  it("keeps nothing from a failed read", async () => {
    const { db, cache, read } = following();
    await expect(cache.read("w", "value", async () => Promise.reject(new Error("unreachable")))).rejects.toThrow(
      "unreachable",
    );
    expect(await read()).toBe("v1");
    expect(db.state.reads).toBe(1);
  });
});
