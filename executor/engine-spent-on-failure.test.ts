import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";

const spent = {
  tokens: { prompt: 120, completion: 30, total: 150 },
  cost: { input: 0.0012, output: 0.0006, total: 0.0018 },
};

describe("engine: what a failed block spent", () => {
  it("adds the usage a failing handler reports to the run, the failed event and the span, and keeps its partial output", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("agent", "task", { fail: "stream broke", usage: spent }),
        block("fallback", "task", { value: "sorry", usage: spent }),
      ],
      [edge("start", "agent"), edge("agent", "fallback", "error")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.failed).toMatchObject([{ blockId: "agent", tokens: spent.tokens, cost: spent.cost }]);
    expect(run.result.usage.tokens.total).toBe(300);
    expect(run.result.usage.cost?.total).toBeCloseTo(0.0036, 12);
    const span = run.spans.filter((record) => record.blockId === "agent" && record.kind === "block").at(-1);
    expect(span).toMatchObject({ status: "failed", usage: spent, output: { content: "partial" } });
    const completed = run.events.find((event) => event.type === "run.completed");
    expect(completed).toMatchObject({ tokens: { total: 300 } });
  });

  it("counts what a block spent when its out edge's condition cannot be evaluated, once", async () => {
    const document = workflow(
      [block("start", "start"), block("agent", "task", { value: "x", usage: spent }), block("next", "task")],
      [edge("start", "agent"), { ...edge("agent", "next"), condition: "output.missing.size > 2" }],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.failed).toMatchObject([
      { blockId: "agent", error: { code: "invalid_expression" }, tokens: spent.tokens, cost: spent.cost },
    ]);
    expect(run.result.usage.tokens.total).toBe(150);
    expect(run.result.usage.cost?.total).toBeCloseTo(0.0018, 12);
    expect(run.spans.findLast((record) => record.blockId === "agent" && record.kind === "block")).toMatchObject({
      status: "failed",
      usage: spent,
    });
  });

  it("counts it once when the block's error edge takes the broken condition", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("agent", "task", { value: "x", usage: spent }),
        block("next", "task"),
        block("fallback", "task"),
      ],
      [
        edge("start", "agent"),
        { ...edge("agent", "next"), condition: "output.missing.size > 2" },
        edge("agent", "fallback", "error"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.result.usage.tokens.total).toBe(150);
  });
});
