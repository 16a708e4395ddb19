import { describe, expect, it } from "vitest";
import type { SequencedRunEvent } from "@/contract";
import { RunChannel } from "./run-channel";
import { runEventStream, type RunEventStreamOptions } from "./run-stream";

const delta = (seqText: string) =>
  ({ type: "block.delta", runId: "r1", blockId: "a", spanId: "s", text: seqText }) as const;
const completed = {
  type: "run.completed",
  runId: "r1",
  output: "done",
  durationMs: 1,
  tokens: { prompt: 0, completion: 0, total: 0 },
} as never;

/** A run executing here: its channel, and storage written as the recorder would. */
function liveRun(limits = { events: 10, bytes: 1_000_000 }) {
  const channel = new RunChannel("r1", 0, limits);
  const stored: SequencedRunEvent[] = [];
  const reads: number[] = [];
  const publish = (event: Parameters<RunChannel["publish"]>[0]) => {
    stored.push(channel.publish(event));
    channel.stored(channel.lastSeq);
  };
  const options: RunEventStreamOptions = {
    runId: "r1",
    afterSeq: 0,
    runs: {
      liveRun: () => ({
        runId: "r1",
        workspaceId: "w",
        workflowId: "f",
        budget: null,
        channel,
        done: new Promise(() => {}),
      }),
      nextSignal: (_runId, timeoutMs) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        return {
          promise: new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
          cancel: () => clearTimeout(timer),
        };
      },
    },
    events: {
      listAfter: async (_runId, afterSeq = 0, limit = 10_000) => {
        reads.push(afterSeq);
        return stored
          .filter((item) => item.seq > afterSeq)
          .slice(0, limit)
          .map((item) => ({ ...item, createdAt: "" }));
      },
    },
  };
  return { channel, publish, options, reads };
}

/** Reads the whole stream, answering the ids it carried. */
async function readAll(response: Response): Promise<number[]> {
  const text = await response.text();
  return [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe("runEventStream", () => {
  it("gives a late client every event, the older ones from storage once the run's channel has let them go", async () => {
    const run = liveRun();
    for (let index = 0; index < 2_500; index++) run.publish(delta(`part ${index}`));
    const response = runEventStream(run.options);
    await tick();
    run.publish(delta("live"));
    run.publish(completed);
    expect(await readAll(response)).toEqual(range(1, 2_502));
    // Pages of storage up to the channel's window, then the channel.
    expect(run.reads).toEqual([0, 1_000, 2_000]);
  });

  it("holds at most its limit for a client that reads nothing, then catches up from storage with nothing lost", async () => {
    const run = liveRun();
    const text = "x".repeat(1_000);
    const response = runEventStream({ ...run.options, maxQueuedBytes: 64 * 1024 });
    await tick();
    for (let index = 0; index < 3_000; index++) run.publish(delta(text));
    await tick();
    // The stream stopped taking events when its queue was full, about 60 events of 1 KB in.
    expect(run.reads).toEqual([]);
    run.publish(completed);
    const ids = await readAll(response);
    expect(ids).toEqual(range(1, 3_001));
    const firstRead = run.reads[0]!;
    expect(firstRead).toBeGreaterThan(50);
    expect(firstRead).toBeLessThanOrEqual(66);
  });

  it("stops following when the client goes away, and the run goes on", async () => {
    const run = liveRun();
    const response = runEventStream(run.options);
    const reader = response.body!.getReader();
    run.publish(delta("one"));
    await reader.read();
    await reader.cancel();
    run.publish(delta("two"));
    run.publish(completed);
    expect(run.channel.ended).toBe(true);
  });
});
