import { describe, expect, it } from "vitest";
import type { ApiSpan } from "@/contract";
import { barPosition, traceRows } from "./span-tree";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

function span(
  fields: Partial<ApiSpan> & Pick<ApiSpan, "id" | "kind" | "blockId">,
  start: number,
  end: number,
): ApiSpan {
  return {
    runId: "r1",
    parentId: null,
    blockName: fields.blockId,
    blockType: "agent",
    status: "succeeded",
    startedAt: at(start),
    endedAt: at(end),
    durationMs: end - start,
    model: null,
    iteration: null,
    tokens: null,
    cost: null,
    unpriced: false,
    estimated: false,
    ...fields,
  } as ApiSpan;
}

const run = { id: "r1", status: "succeeded", startedAt: at(0), endedAt: at(100) };

describe("trace tree", () => {
  const spans = [
    span({ id: "loop", kind: "block", blockId: "loop", blockName: "Each ticket", blockType: "loop" }, 10, 90),
    span({ id: "a1", kind: "block", blockId: "agent", blockName: "Answer", parentId: "loop", iteration: [1] }, 50, 80),
    span({ id: "a0", kind: "block", blockId: "agent", blockName: "Answer", parentId: "loop", iteration: [0] }, 12, 45),
    span(
      { id: "m0", kind: "model", blockId: "agent", parentId: "a0", model: "openai/gpt-4o-mini", iteration: [0] },
      13,
      44,
    ),
    span({ id: "t0", kind: "tool", blockId: "agent", parentId: "a0", name: "lookup_order", iteration: [0] }, 20, 30),
    span({ id: "start", kind: "block", blockId: "start", blockName: "Start", blockType: "start" }, 0, 1),
  ];

  it("puts the run on top, blocks in start order, and groups a loop's blocks by iteration", () => {
    const rows = traceRows(run, spans);
    expect(rows.map((row) => `${"  ".repeat(row.depth)}${row.label}`)).toEqual([
      "Run",
      "  Start",
      "  Each ticket",
      "    Iteration 0",
      "      Answer",
      "        openai/gpt-4o-mini",
      "        lookup_order",
      "    Iteration 1",
      "      Answer",
    ]);
    const iteration = rows.find((row) => row.label === "Iteration 0")!;
    expect([iteration.startedAt, iteration.endedAt]).toEqual([at(12), at(45)]);
  });

  it("hides the rows under a collapsed one", () => {
    const rows = traceRows(run, spans, new Set(["loop"]));
    expect(rows.map((row) => row.label)).toEqual(["Run", "Start", "Each ticket"]);
    expect(rows.at(-1)?.hasChildren).toBe(true);
  });

  it("lists a block that started in the same millisecond as the one before it after that one, whatever their ids", () => {
    // Start ends and Router begins within one millisecond; Router's random id sorts first.
    const sameMillisecond = [
      span({ id: "0a-router", kind: "block", blockId: "router", blockName: "Router", blockType: "router" }, 5, 40),
      span({ id: "f9-start", kind: "block", blockId: "start", blockName: "Start", blockType: "start" }, 5, 5),
      span(
        { id: "1b-agent", kind: "block", blockId: "agent", blockName: "Agent", endedAt: undefined, status: "running" },
        40,
        40,
      ),
      span({ id: "2c-api", kind: "block", blockId: "api", blockName: "API", blockType: "api" }, 40, 41),
    ];
    expect(traceRows(run, sameMillisecond).map((row) => row.label)).toEqual(["Run", "Start", "Router", "API", "Agent"]);
  });

  it("places bars by time relative to the run's start, a running span reaching to now", () => {
    const start = Date.parse(at(0));
    expect(barPosition({ startedAt: at(10), endedAt: at(90) }, start, start + 100)).toEqual({ left: 0.1, width: 0.8 });
    expect(barPosition({ startedAt: at(50), endedAt: null }, start, start + 200)).toEqual({ left: 0.25, width: 0.75 });
    expect(barPosition({ startedAt: null, endedAt: null }, start, start + 100)).toBeNull();
  });
});
