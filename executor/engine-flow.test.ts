import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";

describe("engine: order, concurrency and joins", () => {
  it("runs a linear chain in order and passes each output on", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "<start.topic>" }),
        block("b", "task", { value: "<a.value>!" }),
        block("c", "task", { value: "<b.value>?" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
    );
    const run = await runHarness(document, { input: { topic: "tea" } });
    expect(run.trail).toEqual([
      "run.started",
      "started:start",
      "completed:start",
      "started:a",
      "completed:a",
      "started:b",
      "completed:b",
      "started:c",
      "completed:c",
      "run.completed",
    ]);
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "tea!?" } });
    expect(run.log.calls.find((call) => call.blockId === "b")?.inputs).toEqual({ a: { value: "tea" } });
  });

  it("runs the two sides of a diamond at the same time and the join once, after both", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("left", "task", { delayMs: 60, value: "L" }),
        block("right", "task", { delayMs: 60, value: "R" }),
        block("join", "task", { value: "<left.value><right.value>" }),
      ],
      [edge("start", "left"), edge("start", "right"), edge("left", "join"), edge("right", "join")],
    );
    const run = await runHarness(document);
    const [leftStart] = run.started("left");
    const [rightStart] = run.started("right");
    const [leftEnd] = run.completed("left");
    const [rightEnd] = run.completed("right");
    // Overlap: each side started before the other finished.
    expect(leftStart!.at).toBeLessThan(rightEnd!.at);
    expect(rightStart!.at).toBeLessThan(leftEnd!.at);
    expect(run.started("join")).toHaveLength(1);
    expect(run.started("join")[0]!.at).toBeGreaterThanOrEqual(Math.max(leftEnd!.at, rightEnd!.at));
    expect(run.result.output).toEqual({ value: "LR" });
    expect(run.log.maxRunning).toBe(2);
  });

  it("holds at most `concurrency` handlers running at once", async () => {
    const branches = ["b1", "b2", "b3", "b4", "b5"];
    const document = workflow(
      [block("start", "start"), ...branches.map((id) => block(id, "task", { delayMs: 20 }))],
      branches.map((id) => edge("start", id)),
    );
    const run = await runHarness(document, { concurrency: 2 });
    expect(run.result.status).toBe("succeeded");
    expect(run.log.maxRunning).toBe(2);
    expect(run.log.calls.map((call) => call.blockId)).toEqual(branches);
  });

  it("hands a join only the inputs whose edges were taken", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "yes", expression: "<start.n> > 1" }, { id: "no" }] }),
        block("big", "task", { value: "big" }),
        block("small", "task", { value: "small" }),
        block("join", "task", { value: "joined" }),
      ],
      [
        edge("start", "check"),
        edge("check", "big", "branch:yes"),
        edge("check", "small", "branch:no"),
        edge("big", "join"),
        edge("small", "join"),
      ],
    );
    const run = await runHarness(document, { input: { n: 5 } });
    expect(run.skipped).toEqual(["small"]);
    expect(run.started("join")).toHaveLength(1);
    expect(run.log.calls.find((call) => call.blockId === "join")?.inputs).toEqual({ big: { value: "big" } });
  });

  it("skips a join whose every input was on a path not taken", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "yes", expression: "false" }, { id: "else" }] }),
        block("a", "task"),
        block("b", "task"),
        block("join", "task"),
        block("after", "task"),
      ],
      [
        edge("start", "check"),
        edge("check", "a", "branch:yes"),
        edge("check", "b", "branch:yes"),
        edge("a", "join"),
        edge("b", "join"),
        edge("join", "after"),
      ],
    );
    const run = await runHarness(document);
    expect(new Set(run.skipped)).toEqual(new Set(["a", "b", "join", "after"]));
    expect(run.events.find((event) => event.type === "block.skipped" && event.blockId === "join")).toMatchObject({
      reason: expect.stringContaining("path not taken"),
    });
    expect(run.result.status).toBe("succeeded");
  });

  it("sums tokens and cost of every block into the run total, unpriced when any part is", async () => {
    const priced = {
      tokens: { prompt: 10, completion: 5, total: 15 },
      cost: { input: 0.001, output: 0.002, total: 0.003 },
    };
    const document = workflow(
      [block("start", "start"), block("a", "task", { usage: priced }), block("b", "task", { usage: priced })],
      [edge("start", "a"), edge("a", "b")],
    );
    const run = await runHarness(document);
    const completed = run.events.find((event) => event.type === "run.completed");
    expect(completed).toMatchObject({
      tokens: { prompt: 20, completion: 10, total: 30 },
      cost: { input: 0.002, output: 0.004, total: 0.006 },
    });
    expect(run.completed("a")[0]).toMatchObject({ tokens: priced.tokens, cost: priced.cost });

    const unpriced = workflow(
      [
        block("start", "start"),
        block("a", "task", { usage: priced }),
        block("b", "task", { usage: { tokens: priced.tokens, cost: null, unpriced: true } }),
      ],
      [edge("start", "a"), edge("a", "b")],
    );
    const second = await runHarness(unpriced);
    expect(second.result.usage).toMatchObject({ cost: null, unpriced: true, tokens: { total: 30 } });
  });

  it("streams deltas and records child spans under the block's span", async () => {
    const document = workflow(
      [block("start", "start"), block("a", "task", { delta: "Hel", childSpan: true })],
      [edge("start", "a")],
    );
    const run = await runHarness(document);
    const started = run.started("a")[0] as { spanId: string };
    expect(run.events.find((event) => event.type === "block.delta")).toMatchObject({
      blockId: "a",
      spanId: started.spanId,
      text: "Hel",
    });
    const child = run.spans.filter((span) => span.kind === "model");
    expect(child.at(-1)).toMatchObject({
      parentId: started.spanId,
      status: "succeeded",
      model: "fake/model",
      output: { text: "hi" },
    });
    const blockSpan = run.spans.filter((span) => span.id === started.spanId);
    expect(blockSpan.map((span) => span.status)).toEqual(["running", "succeeded"]);
  });

  it("leaves out disabled blocks and blocks not reachable from start", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", {}, { enabled: false }),
        block("b", "task"),
        block("island", "task"),
        block("c", "task"),
      ],
      [edge("start", "a"), edge("a", "b"), edge("start", "c")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["c"]);
    expect(run.events.some((event) => "blockId" in event && ["a", "b", "island"].includes(event.blockId))).toBe(false);
  });

  it("fails the run before any block when the graph is invalid, with the validator's message", async () => {
    const document = workflow([block("start", "start"), block("a", "task")], [edge("start", "ghost")]);
    const run = await runHarness(document);
    expect(run.trail).toEqual(["run.started", "run.failed"]);
    expect(run.result.error).toEqual({
      code: "invalid_workflow",
      message: expect.stringContaining("Edge 'start->ghost' ends at block 'ghost', which does not exist"),
    });
  });

  it("ends with the outputs of every path's last block when there is no response block", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: 1 }, { name: "First Leaf" }),
        block("b", "task", { value: 2 }),
      ],
      [edge("start", "a"), edge("start", "b")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({ firstleaf: { value: 1 }, b: { value: 2 } });
  });

  it("keeps running when an observer throws", async () => {
    const document = workflow([block("start", "start"), block("a", "task", { value: 1 })], [edge("start", "a")]);
    const run = await runHarness(document, {
      observer: {
        event: () => {
          throw new Error("storage down");
        },
        span: () => undefined,
      },
    });
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: 1 } });
  });
});
