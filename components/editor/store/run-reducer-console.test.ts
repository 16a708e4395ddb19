import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/contract";
import { reduceRunEvents } from "./run-reducer";
import { initialRunView } from "./run-view";

/** The console's lines: streamed text by line as it arrives, what a Function printed, and blocks named as people know them. */

const view = (events: RunEvent[], names: Record<string, string> = {}) =>
  reduceRunEvents(
    initialRunView("r1", ["start", "agent", "code", "other"], names),
    events.map((event, index) => ({ seq: index + 1, event })),
  );
const started = (blockId: string, blockName: string, spanId: string, blockType = "agent"): RunEvent => ({
  type: "block.started",
  runId: "r1",
  blockId,
  blockName,
  blockType,
  spanId,
  startedAt: "2026-01-01T00:00:00.010Z",
});
const delta = (blockId: string, spanId: string, text: string): RunEvent => ({
  type: "block.delta",
  runId: "r1",
  blockId,
  spanId,
  text,
});
const lines = (events: RunEvent[]) => view(events).log.filter((entry) => entry.type === "block.delta");

describe("the console's streamed lines", () => {
  it("shows a block's streamed text one line per line of output, growing the open line as words arrive", () => {
    const partway = lines([
      started("agent", "Writer", "s1"),
      delta("agent", "s1", "Dear "),
      delta("agent", "s1", "Ann,\n\nThanks "),
      delta("agent", "s1", "for"),
    ]);
    expect(partway.map((entry) => [entry.text, Boolean(entry.partial)])).toEqual([
      ["Dear Ann,", false],
      ["", false],
      ["Thanks for", true],
    ]);
    const done = lines([
      started("agent", "Writer", "s1"),
      delta("agent", "s1", "Dear Ann,\n"),
      delta("agent", "s1", "Bye.\n"),
      { type: "block.completed", runId: "r1", blockId: "agent", spanId: "s1", output: "…", durationMs: 5 },
    ]);
    expect(done.map((entry) => [entry.text, Boolean(entry.partial)])).toEqual([
      ["Dear Ann,", false],
      ["Bye.", false],
    ]);
  });

  it("keeps two blocks streaming at once on their own lines", () => {
    const log = lines([
      started("agent", "A", "s1"),
      started("other", "B", "s2"),
      delta("agent", "s1", "one "),
      delta("other", "s2", "uno "),
      delta("agent", "s1", "two"),
    ]);
    expect(log.map((entry) => [entry.blockId, entry.text])).toEqual([
      ["agent", "one two"],
      ["other", "uno "],
    ]);
  });
});

describe("the console's other lines", () => {
  it("shows what a Function block printed (its stdout), one line each, before it says it succeeded", () => {
    const log = view([
      started("code", "Tally", "s3", "function"),
      {
        type: "block.completed",
        runId: "r1",
        blockId: "code",
        spanId: "s3",
        output: { result: 3, stdout: "counting\ntotal 3\n", outputs: {} },
        durationMs: 12,
      },
    ]).log;
    expect(log.map((entry) => [entry.type, entry.text])).toEqual([
      ["block.started", "Tally started"],
      ["block.stdout", "counting"],
      ["block.stdout", "total 3"],
      ["block.completed", "Tally succeeded"],
    ]);
  });

  it("names a skipped block, which never started, by its name in the workflow rather than its id", () => {
    const log = view([{ type: "block.skipped", runId: "r1", blockId: "agent", reason: "no route led to it" }], {
      agent: "Sales agent",
    }).log;
    expect(log.map((entry) => entry.text)).toEqual(["Sales agent skipped: no route led to it"]);
  });
});
