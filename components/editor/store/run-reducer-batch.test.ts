import { describe, expect, it } from "vitest";
import type { RunEvent, SequencedRunEvent } from "@/contract";
import { reduceRun, reduceRunEvents } from "./run-reducer";
import { initialRunView, type RunView } from "./run-view";

/**
 * A frame's worth of events is applied as one batch, which writes into the copies it made
 * instead of copying per event: what the canvas and the console show must not depend on how the
 * stream was cut into frames, and a view React already holds must never change under it.
 */

const RUN = "run-1";
const BLOCKS = Array.from({ length: 40 }, (_, index) => `agent${index + 1}`);
const TOKENS = { prompt: 12, completion: 4, total: 16 };
const COST = { input: 0.00001, output: 0.00002, total: 0.00003 };

/** A run of 40 agents side by side: each starts, streams three words over two lines, prints and finishes. */
function parallelRun(): SequencedRunEvent[] {
  const events: RunEvent[] = [
    { type: "run.started", runId: RUN, workflowId: "wf", startedAt: "2026-12-07T05:00:00.000Z" },
  ];
  for (const blockId of BLOCKS) {
    events.push({
      type: "block.started",
      runId: RUN,
      blockId,
      blockName: blockId,
      blockType: "agent",
      spanId: `span-${blockId}`,
      startedAt: "2026-12-07T05:00:00.100Z",
    });
  }
  for (const text of ["Echo: ", "the quarterly\nfigures ", "for the board"]) {
    for (const blockId of BLOCKS)
      events.push({ type: "block.delta", runId: RUN, blockId, spanId: `span-${blockId}`, text });
  }
  for (const blockId of BLOCKS) {
    const output = { text: "Echo: the quarterly\nfigures for the board", stdout: "printed\n" };
    events.push({
      type: "block.completed",
      runId: RUN,
      blockId,
      spanId: `span-${blockId}`,
      output,
      durationMs: 120,
      tokens: TOKENS,
      cost: COST,
    });
  }
  events.push({ type: "run.completed", runId: RUN, output: {}, durationMs: 900, tokens: TOKENS, cost: COST });
  return events.map((event, index) => ({ seq: index + 1, event }));
}

function frozen<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

const start = () => initialRunView(RUN, ["start", ...BLOCKS], { start: "Start" });

describe("run events applied a frame at a time", () => {
  const events = parallelRun();
  const oneByOne = events.reduce(reduceRun, start());

  it("shows the same nodes, totals and console however the stream is cut into frames", () => {
    for (const frameSize of [1, 7, 40, events.length]) {
      let view = start();
      for (let index = 0; index < events.length; index += frameSize)
        view = reduceRunEvents(view, events.slice(index, index + frameSize));
      expect(view).toEqual(oneByOne);
    }
    expect(oneByOne.blocks.agent7).toMatchObject({
      status: "succeeded",
      text: "Echo: the quarterly\nfigures for the board",
      durationMs: 120,
    });
    expect(
      oneByOne.log
        .filter((entry) => entry.type === "block.delta" && entry.blockId === "agent7")
        .map((entry) => entry.text),
    ).toEqual(["Echo: the quarterly", "figures for the board"]);
    expect(oneByOne.log.filter((entry) => entry.type === "block.stdout")).toHaveLength(BLOCKS.length);
    // Totals so far, before run.completed states the run's own: the sum of every finished block.
    expect(reduceRunEvents(start(), events.slice(0, -1)).tokens?.total).toBe(16 * BLOCKS.length);
  });

  it("never changes a view already shown: the next frame's view is a new one, the one before stays as it was", () => {
    const firstHalf = reduceRunEvents(start(), events.slice(0, 100));
    const snapshot = structuredClone(firstHalf);
    // Frozen, a write into the shown view's block map, log or entries would throw.
    const next = reduceRunEvents(frozen(firstHalf), events.slice(100));
    expect(firstHalf).toEqual(snapshot);
    expect(next.blocks).not.toBe(firstHalf.blocks);
    expect(next.log).not.toBe(firstHalf.log);
    expect(next).toEqual(oneByOne);
  });

  it("keeps the objects of blocks and lines a frame did not touch, so their nodes and lines do not re-render", () => {
    const before: RunView = reduceRunEvents(start(), events.slice(0, 1 + BLOCKS.length));
    // The next frame: one delta, for agent1 alone.
    const after = reduceRunEvents(before, events.slice(1 + BLOCKS.length, 2 + BLOCKS.length));
    expect(after.blocks.agent1).not.toBe(before.blocks.agent1);
    expect(after.blocks.agent2).toBe(before.blocks.agent2);
    expect(after.log.slice(0, before.log.length).every((entry, index) => entry === before.log[index])).toBe(true);
  });

  it("answers the view it was given for a frame of events it has already applied (a resumed stream)", () => {
    const view = reduceRunEvents(start(), events.slice(0, 50));
    expect(reduceRunEvents(view, events.slice(10, 50))).toBe(view);
  });
});
