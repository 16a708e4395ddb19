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
