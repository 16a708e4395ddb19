import { describe, expect, it } from "vitest";
import type { RunWrite } from "@/lib/db";
import { RunChannel } from "./run-channel";
import { RunRecorder } from "./run-recorder";

/** What pg throws while the server is down. */
const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** Storage whose database is away until `up()`: every write fails as a refused connection meanwhile. */
function unreachableStorage() {
  const stored: RunWrite[] = [];
  let down = true;
  let attempts = 0;
  return {
    stored,
    attempts: () => attempts,
    up: () => (down = false),
    persistence: {
      write: async (write: RunWrite) => {
        attempts += 1;
        if (down) throw refused();
        stored.push(write);
      },
    },
  };
}

const delta = (text: string) => ({ type: "block.delta", runId: "r1", blockId: "a", spanId: "s", text }) as const;

/** Storage that accepts writes but finishes none until released: a stalled database. */
function stalledStorage() {
  const writes: RunWrite[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    writes,
    release,
    persistence: {
      write: async (write: RunWrite) => {
        writes.push(write);
        await released;
      },
    },
  };
}

describe("RunRecorder with storage stalled", () => {
  it("says once that storage is behind when the events waiting for it pass the limit, and lets them go once stored", async () => {
    const storage = stalledStorage();
    const channel = new RunChannel("r1", 0, { events: 10, bytes: 10_000 });
    const behind: number[] = [];
    const recorder = new RunRecorder(
      channel,
      storage.persistence,
      undefined,
      () => {},
      undefined,
      (bytes) => behind.push(bytes),
      { maxUnstoredBytes: 50_000, maxUnstoredMs: 60_000 },
    );
    const text = "x".repeat(1_000);
    for (let index = 0; index < 40; index++) recorder.event(delta(text));
    // The first batch goes to storage and hangs there; what follows waits behind it.
    const first = recorder.flush();
    expect(behind).toEqual([]);
    expect(channel.unstoredBytes).toBeGreaterThan(40_000);

    for (let index = 0; index < 20; index++) recorder.event(delta(text));
    expect(behind).toHaveLength(1);
    expect(behind[0]).toBeGreaterThan(50_000);
    for (let index = 0; index < 20; index++) recorder.event(delta(text));
    expect(behind).toHaveLength(1);

    storage.release();
    await first;
    await recorder.flush();
    expect(channel.unstoredBytes).toBe(0);
    expect(storage.writes.flatMap((write) => write.events).length).toBe(80);
  });
});

describe("RunRecorder with the database unreachable", () => {
  it("keeps every batch and stores them all, in order and without a gap, once the database is back", async () => {
    const storage = unreachableStorage();
    const channel = new RunChannel("r1");
    const errors: unknown[] = [];
    const stored: number[] = [];
    const recorder = new RunRecorder(
      channel,
      storage.persistence,
      undefined,
      (error) => errors.push(error),
      (seq) => stored.push(seq),
    );
    for (let index = 0; index < 5; index++) recorder.event(delta(`a${index}`));
    const first = recorder.flush();
    for (let index = 0; index < 5; index++) recorder.event(delta(`b${index}`));
    const second = recorder.flush({ key: "block:a", data: { done: true }, sealed: null });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(storage.attempts()).toBeGreaterThan(1);
    expect(storage.stored).toEqual([]);
    expect(channel.unstoredBytes).toBeGreaterThan(0);

    storage.up();
    await first;
    // The checkpoint's flush waits until it is stored, rather than failing: the block counts as durable only then.
    await second;
    expect(storage.stored.flatMap((write) => write.events!.map((item) => item.seq))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(storage.stored[1]!.checkpoint?.key).toBe("block:a");
    expect(stored).toEqual([5, 10]);
    expect(channel.unstoredBytes).toBe(0);
    // One line per outage in the log, not one per retry.
    expect(errors).toHaveLength(1);
    expect(recorder.persistFailures).toBe(0);
  });

  it("tells the run to stop (storage_behind) once events waited past the limit, and still stores them when the database returns", async () => {
    const storage = unreachableStorage();
    const channel = new RunChannel("r1");
    const behind: number[] = [];
    const recorder = new RunRecorder(
      channel,
      storage.persistence,
      undefined,
      () => {},
      undefined,
      (bytes) => behind.push(bytes),
      {
        maxUnstoredBytes: 1_000_000,
        maxUnstoredMs: 300,
      },
    );
    recorder.event(delta("first"));
    const flushed = recorder.flush();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(behind).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(behind).toHaveLength(1);
    storage.up();
    await flushed;
    expect(storage.stored.flatMap((write) => write.events!.map((item) => item.seq))).toEqual([1]);
  });

  it("does not retry a write the database refused (not an outage)", async () => {
    const channel = new RunChannel("r1");
    let attempts = 0;
    const recorder = new RunRecorder(
      channel,
      {
        write: async () => {
          attempts += 1;
          throw new Error('insert or update on table "run_events" violates foreign key constraint');
        },
      },
      undefined,
      () => {},
    );
    recorder.event(delta("x"));
    await recorder.flush();
    expect(attempts).toBe(1);
    expect(recorder.persistFailures).toBe(1);
  });
});
