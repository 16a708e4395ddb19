import { describe, expect, it } from "vitest";
import type { RunWrite } from "@/lib/db";
import { RunChannel } from "./run-channel";
import { RunRecorder } from "./run-recorder";

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
      50_000,
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
