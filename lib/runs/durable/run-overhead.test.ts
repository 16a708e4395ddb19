import { describe, expect, it } from "vitest";
import { RunOverheadMeter } from "./run-overhead";

const at = (ms: number) => new Date(1_000_000 + ms).toISOString();
const block = (id: string, from: number, to?: number) => ({
  id,
  kind: "block" as const,
  startedAt: at(from),
  ...(to === undefined ? {} : { endedAt: at(to) }),
});

describe("RunOverheadMeter", () => {
  it("splits a run's time outside its blocks into queue wait, start, storage and the gaps between blocks", async () => {
    let now = 1_000_000 + 40;
    const meter = new RunOverheadMeter(1_000_000, 1_000_000 + 30, 1_000_000 + 40, () => now);
    // Blocks from 50 to 60 and 75 to 100; a checkpoint write from 60 to 70; nothing from 70 to 75.
    meter.span(block("a", 50, 60));
    meter.span(block("b", 75));
    meter.span(block("b", 75, 100));
    meter.span({ id: "call", kind: "model", startedAt: at(80), endedAt: at(200) });
    now = 1_000_000 + 60;
    await meter.storing(async () => {
      now = 1_000_000 + 70;
    });
    expect(meter.figures(1_000_000 + 110)).toEqual({ queueMs: 30, startMs: 10, storageMs: 10, betweenBlocksMs: 15 });
  });

  it("counts a run with no block as all start, and storage overlapping a block once", async () => {
    let now = 1_000_000;
    const meter = new RunOverheadMeter(1_000_000, 1_000_000, 1_000_000, () => now);
    expect(meter.figures(1_000_000 + 25)).toEqual({ queueMs: 0, startMs: 25, storageMs: 0, betweenBlocksMs: 0 });
    meter.span(block("a", 30, 50));
    now = 1_000_000 + 40;
    await meter.storing(async () => {
      now = 1_000_000 + 55;
    });
    expect(meter.figures(1_000_000 + 60)).toEqual({ queueMs: 0, startMs: 30, storageMs: 15, betweenBlocksMs: 5 });
  });
});
