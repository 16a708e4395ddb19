import { describe, expect, it } from "vitest";
import type { ApiRun, ApiSpan } from "@/contract";
import { diffOutput, diffRuns } from "./run-diff";

let clock = 0;
function span(blockId: string, fields: Partial<ApiSpan> = {}): ApiSpan {
  clock += 1;
  return {
    id: `${blockId}-${clock}`,
    parentId: null,
    blockId,
    blockName: blockId.toUpperCase(),
    blockType: "agent",
    status: "succeeded",
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock)).toISOString(),
    endedAt: null,
    durationMs: 100,
    input: null,
    output: {},
    error: null,
    model: null,
    tokens: null,
    cost: null,
    unpriced: false,
    estimated: false,
    iteration: null,
    kind: "block",
    ...fields,
  } as ApiSpan;
}

function run(id: string, spans: ApiSpan[], workflowId = "wf"): ApiRun {
  return {
    id,
    workflowId,
    status: "succeeded",
    spans,
    tokens: { prompt: 0, completion: 0, total: 0 },
    cost: { input: 0, output: 0, total: 0 },
    durationMs: 1000,
  } as unknown as ApiRun;
}

const usage = (total: number, cost: number) => ({
  tokens: { prompt: total, completion: 0, total },
  cost: { input: cost, output: 0, total: cost },
});

describe("diffRuns", () => {
  it("flags only the block whose output changed, first, with a text diff; timings and figures in the output are not a change", () => {
    const before = run("a", [
      span("start", { blockType: "start", output: { topic: "tea" } }),
      span("outline", {
        output: { content: "Leaves and water.", providerTiming: { duration: 10 } },
        ...usage(50, 0.001),
        durationMs: 300,
      }),
      span("summary", { output: { content: "Short.", providerTiming: { duration: 10 } }, ...usage(20, 0.0005) }),
    ]);
    const after = run("b", [
      span("start", { blockType: "start", output: { topic: "tea" } }),
      span("outline", {
        output: { content: "Dried leaves and water.", providerTiming: { duration: 99 } },
        ...usage(52, 0.0011),
        durationMs: 320,
      }),
      span("summary", {
        output: { content: "Short.", providerTiming: { duration: 77 } },
        ...usage(20, 0.0005),
        durationMs: 500,
      }),
    ]);
    const diff = diffRuns(before, after);
    expect(diff.changedBlocks).toBe(1);
    expect(diff.blocks.map((block) => [block.blockId, block.change])).toEqual([
      ["outline", "changed"],
      ["summary", "same"],
      ["start", "same"],
    ]);
    const outline = diff.blocks[0]!;
    expect(outline.output).toEqual({
      changed: true,
      kind: "text",
      path: "content",
      parts: [
        { kind: "removed", text: "Leaves " },
        { kind: "added", text: "Dried leaves " },
        { kind: "same", text: "and water." },
      ],
    });
    expect(outline.tokens).toEqual({ from: 50, to: 52, delta: 2 });
    expect(outline.cost.delta).toBeCloseTo(0.0001);
    expect(outline.durationMs).toEqual({ from: 300, to: 320, delta: 20 });
  });

  it("puts status changes first, then blocks in one run only, then outputs; JSON outputs by path; iterations matched apart", () => {
    const before = run("a", [
      span("check", { blockType: "condition", output: { selectedBranch: "short" } }),
      span("done", { blockType: "response", output: { text: "x" } }),
      span("body", { iteration: [0], output: { value: 1 } }),
      span("body", { iteration: [1], output: { value: 2 } }),
      span("api", { blockType: "api", output: { status: 200, data: { items: [1, 2] } } }),
    ]);
    const after = run("b", [
      span("check", { blockType: "condition", output: { selectedBranch: "long" } }),
      span("review", { status: "failed", error: { code: "not_recorded", message: "Not recorded" }, output: null }),
      span("body", { iteration: [0], output: { value: 1 } }),
      span("body", { iteration: [1], output: { value: 3 } }),
      span("api", { blockType: "api", status: "failed", output: { status: 500, data: { items: [1, 2] } } }),
    ]);
    const diff = diffRuns(before, after);
    expect(
      diff.blocks.map(
        (block) => `${block.blockId}${block.iteration ? `@${block.iteration.join(".")}` : ""}:${block.change}`,
      ),
    ).toEqual(["api:changed", "done:removed", "review:added", "check:changed", "body@1:changed", "body@0:same"]);
    expect(diff.blocks[0]!.status).toEqual({ from: "succeeded", to: "failed", changed: true });
    expect(diff.blocks[0]!.output).toEqual({
      changed: true,
      kind: "json",
      changes: [{ path: "status", from: 200, to: 500 }],
      truncated: false,
    });
    expect(diff.blocks.find((block) => block.blockId === "review")!.status).toEqual({
      from: null,
      to: "failed",
      changed: true,
    });
    expect(diff.changedBlocks).toBe(5);
  });
});

describe("diffOutput", () => {
  it("finds no change in equal outputs whose keys come in another order", () => {
    expect(diffOutput({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual({ changed: false });
  });

  it("lists added and removed paths", () => {
    expect(diffOutput({ a: 1, gone: true }, { a: 1, extra: [1] })).toEqual({
      changed: true,
      kind: "json",
      changes: [
        { path: "gone", from: true },
        { path: "extra", to: [1] },
      ],
      truncated: false,
    });
  });
});
