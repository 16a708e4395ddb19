import { describe, expect, it } from "vitest";
import { RunChannel } from "./run-channel";

const started = { type: "run.started", runId: "r1", workflowId: "w1", startedAt: "2026-01-01T00:00:00.000Z" } as const;
const delta = (text: string) => ({ type: "block.delta", runId: "r1", blockId: "a", spanId: "s", text }) as const;

describe("RunChannel", () => {
  it("numbers events from 1 and replays a late subscriber without gaps or repeats", () => {
    const channel = new RunChannel("r1");
    channel.publish(started);
    channel.publish(delta("Hel"));
    const seen: number[] = [];
    channel.subscribe(1, (item) => seen.push(item.seq));
    channel.publish(delta("lo"));
    expect(seen).toEqual([2, 3]);
  });

  it("stops fanning out after a terminal event and replays to subscribers that come after", () => {
    const channel = new RunChannel("r1");
    const live: string[] = [];
    channel.subscribe(0, (item) => live.push(item.event.type));
    channel.publish(started);
    channel.publish({ type: "run.cancelled", runId: "r1" });
    expect(channel.ended).toBe(true);
    expect(live).toEqual(["run.started", "run.cancelled"]);
    const late: number[] = [];
    const unsubscribe = channel.subscribe(0, (item) => late.push(item.seq));
    expect(late).toEqual([1, 2]);
    unsubscribe();
  });
});

describe("RunChannel's window", () => {
  const limits = { events: 10, bytes: 1_000_000 };

  it("keeps only the latest stored events, so a long run does not grow the process", () => {
    const channel = new RunChannel("r1", 0, limits);
    for (let index = 0; index < 5_000; index++) channel.publish(delta(`part ${index}`));
    channel.stored(5_000);
    expect(channel.lastSeq).toBe(5_000);
    expect(channel.firstSeq).toBe(4_991);
    const replayed: number[] = [];
    channel.subscribe(0, (item) => replayed.push(item.seq));
    expect(replayed).toEqual(Array.from({ length: 10 }, (_, index) => 4_991 + index));
  });

  it("holds events not yet stored whatever their number: nothing else has them", () => {
    const channel = new RunChannel("r1", 0, limits);
    for (let index = 0; index < 50; index++) channel.publish(delta("x"));
    expect(channel.firstSeq).toBe(1);
    channel.stored(30);
    expect(channel.firstSeq).toBe(31);
    channel.stored(50);
    expect(channel.firstSeq).toBe(41);
  });

  it("lets large events go by their size too", () => {
    const channel = new RunChannel("r1", 0, { events: 1_000, bytes: 50_000 });
    for (let index = 0; index < 20; index++) channel.publish(delta("y".repeat(10_000)));
    channel.stored(20);
    expect(channel.firstSeq).toBe(17);
  });

  it("replays from a resumed run's numbering and follows live events after the window", () => {
    const channel = new RunChannel("r1", 100, limits);
    for (let index = 0; index < 30; index++) channel.publish(delta("z"));
    channel.stored(130);
    const seen: number[] = [];
    channel.subscribe(125, (item) => seen.push(item.seq));
    channel.publish(delta("live"));
    expect(seen).toEqual([126, 127, 128, 129, 130, 131]);
  });
});
