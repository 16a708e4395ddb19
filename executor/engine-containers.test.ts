import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";

const inside = (parentId: string) => ({ parentId });

describe("engine: loop and parallel containers", () => {
  it("runs a for loop N times with <loop.index>, collects results, and continues after it", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 3 }),
        block("step", "task", { value: "<loop.index>" }, inside("repeat")),
        block("after", "task", { value: "<repeat.results>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "step", "body"), edge("repeat", "after")],
    );
    const run = await runHarness(document);
    expect(run.completed("repeat")[0]).toMatchObject({
      output: { results: [{ value: 0 }, { value: 1 }, { value: 2 }] },
    });
    expect(run.result.output).toEqual({ value: [{ value: 0 }, { value: 1 }, { value: 2 }] });
    expect(run.started("step").map((event) => (event as { iteration?: number[] }).iteration)).toEqual([[0], [1], [2]]);
    const stepSpans = run.spans.filter((span) => span.blockId === "step" && span.status === "succeeded");
    const loopSpan = run.spans.find((span) => span.blockId === "repeat")!;
    expect(stepSpans.map((span) => [span.iteration, span.parentId])).toEqual([
      [[0], loopSpan.id],
      [[1], loopSpan.id],
      [[2], loopSpan.id],
    ]);
  });

  it("iterates forEach over a referenced collection with <loop.item>, and hands body blocks the iteration as input", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "forEach", collection: "<start.names>" }),
        block("greet", "task", { value: "Hi <loop.item>" }, inside("each")),
      ],
      [edge("start", "each"), edge("each", "greet", "body")],
    );
    const run = await runHarness(document, { input: { names: ["Ada", "Linus"] } });
    expect(run.result.output).toEqual({ results: [{ value: "Hi Ada" }, { value: "Hi Linus" }] });
    expect(run.log.calls[0]!.inputs).toEqual({ each: { index: 0, item: "Ada" } });
  });

  it("runs no iteration over an empty collection: results are empty, the body is skipped, the flow goes on", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "forEach", collection: [] }),
        block("inner", "task", {}, inside("each")),
        block("after", "task", { value: "<each.results>" }),
      ],
      [edge("start", "each"), edge("each", "inner", "body"), edge("each", "after")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({ value: [] });
    expect(run.skipped).toEqual(["inner"]);
    expect(run.events.find((event) => event.type === "block.skipped")).toMatchObject({
      reason: "'each' ran no iterations",
    });
  });

  it("runs a while loop whose condition is false at the start zero times", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("spin", "loop", { kind: "while", condition: "<start.go> == true" }),
        block("inner", "task", {}, inside("spin")),
      ],
      [edge("start", "spin"), edge("spin", "inner", "body")],
    );
    const run = await runHarness(document, { input: { go: false } });
    expect(run.result).toMatchObject({ status: "succeeded", output: { results: [] } });
    expect(run.log.calls).toEqual([]);
  });

  it("repeats a while loop while its condition holds, reading the previous iteration's outputs", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("spin", "loop", { kind: "while", condition: "<loop.index> == 0 || <inner.value> < 3" }),
        block("inner", "task", { value: "<loop.index>" }, inside("spin")),
      ],
      [edge("start", "spin"), edge("spin", "inner", "body")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({ results: [0, 1, 2, 3].map((value) => ({ value })) });
  });

  it("fails a while loop that reaches its iteration limit", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("spin", "loop", { kind: "while", condition: "true", maxIterations: 5 }),
        block("inner", "task", {}, inside("spin")),
      ],
      [edge("start", "spin"), edge("spin", "inner", "body")],
    );
    const run = await runHarness(document);
    expect(run.result.error).toEqual({
      code: "iteration_limit",
      message: "Block 'spin' failed: Loop 'spin' was still running after its limit of 5 iterations (maxIterations)",
    });
    expect(run.started("inner")).toHaveLength(5);
  });

  it("stops a loop at an unhandled error inside it and names the iteration and block", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 5 }),
        block("work", "task", { index: "<loop.index>", failOn: 2 }, inside("repeat")),
        block("after", "task"),
      ],
      [edge("start", "repeat"), edge("repeat", "work", "body"), edge("repeat", "after")],
    );
    const run = await runHarness(document);
    expect(run.started("work")).toHaveLength(3);
    expect(run.failed.map((event) => [event.blockId, event.handled])).toEqual([
      ["work", false],
      ["repeat", false],
    ]);
    expect(run.result.error).toEqual({
      code: "task_failed",
      message: "Block 'repeat' failed: Iteration 2 of 'repeat' failed at block 'work': failed on 2",
    });
    expect(run.started("after")).toHaveLength(0);
  });

  it("lets a container's error edge take a failure from inside it", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 2 }),
        block("work", "task", { fail: "inner" }, inside("repeat")),
        block("recover", "task", { value: "<repeat.error.message>" }),
        block("after", "task"),
      ],
      [
        edge("start", "repeat"),
        edge("repeat", "work", "body"),
        edge("repeat", "recover", "error"),
        edge("repeat", "after"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({
      status: "succeeded",
      output: { value: "Iteration 0 of 'repeat' failed at block 'work': inner" },
    });
    expect(run.skipped).toEqual(["after"]);
  });

  it("chooses differently per iteration with a condition inside a loop", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "forEach", collection: [1, 5, 2, 8] }),
        block(
          "check",
          "condition",
          { branches: [{ id: "big", expression: "<loop.item> > 3" }, { id: "small" }] },
          inside("each"),
        ),
        block("big", "task", { value: "big <loop.item>" }, inside("each")),
        block("small", "task", { value: "small <loop.item>" }, inside("each")),
      ],
      [
        edge("start", "each"),
        edge("each", "check", "body"),
        edge("check", "big", "branch:big"),
        edge("check", "small", "branch:small"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({
      results: [{ value: "small 1" }, { value: "big 5" }, { value: "small 2" }, { value: "big 8" }],
    });
    expect(run.skipped).toEqual(["big", "small", "big", "small"]);
  });

  it("runs parallel branches at the same time within the container's concurrency, results in branch order", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fan", "parallel", { kind: "collection", collection: [30, 10, 20, 5], concurrency: 2 }),
        block("work", "task", { delayMs: "<parallel.item>", value: "<parallel.index>" }, inside("fan")),
      ],
      [edge("start", "fan"), edge("fan", "work", "body")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({ results: [0, 1, 2, 3].map((value) => ({ value })) });
    expect(run.log.maxRunning).toBe(2);
  });

  it("runs a parallel inside a loop, with both iteration indexes on events", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("outer", "loop", { kind: "for", count: 2 }),
        block("fan", "parallel", { kind: "count", count: 3 }, inside("outer")),
        block("work", "task", { value: "<loop.index>-<parallel.index>" }, inside("fan")),
      ],
      [edge("start", "outer"), edge("outer", "fan", "body"), edge("fan", "work", "body")],
    );
    const run = await runHarness(document);
    const row = (loop: number) => ({ results: [0, 1, 2].map((branch) => ({ value: `${loop}-${branch}` })) });
    expect(run.result.output).toEqual({ results: [row(0), row(1)] });
    expect(run.started("work").map((event) => (event as { iteration?: number[] }).iteration)).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect(run.started("fan").map((event) => (event as { iteration?: number[] }).iteration)).toEqual([[0], [1]]);
  });

  it("runs a loop inside a parallel, each branch with its own loop state", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fan", "parallel", { kind: "collection", collection: [["a", "b"], ["c"]] }),
        block("each", "loop", { kind: "forEach", collection: "<parallel.item>" }, inside("fan")),
        block("work", "task", { value: "<parallel.index>:<loop.item>", delayMs: 5 }, inside("each")),
      ],
      [edge("start", "fan"), edge("fan", "each", "body"), edge("each", "work", "body")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({
      results: [{ results: [{ value: "0:a" }, { value: "0:b" }] }, { results: [{ value: "1:c" }] }],
    });
  });

  it("lets a response block inside a parallel branch end the run and stop the other branches", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fan", "parallel", { kind: "collection", collection: [5, 400, 400] }),
        block("work", "task", { delayMs: "<parallel.item>", value: "<parallel.index>" }, inside("fan")),
        block("reply", "response", { data: { winner: "<work.value>" } }, inside("fan")),
        block("after", "task"),
      ],
      [edge("start", "fan"), edge("fan", "work", "body"), edge("work", "reply"), edge("fan", "after")],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({ status: "succeeded", output: { winner: 0 } });
    expect(run.log.aborted).toEqual(["work", "work"]);
    expect(run.started("after")).toHaveLength(0);
    expect(run.trail.at(-1)).toBe("run.completed");
  });

  it("stops a parallel container at a failing branch and fails with the branch index", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fan", "parallel", { kind: "count", count: 4, concurrency: 1 }),
        block("work", "task", { index: "<parallel.index>", failOn: 1 }, inside("fan")),
      ],
      [edge("start", "fan"), edge("fan", "work", "body")],
    );
    const run = await runHarness(document);
    expect(run.started("work")).toHaveLength(2);
    expect(run.result.error?.message).toBe("Block 'fan' failed: Branch 1 of 'fan' failed at block 'work': failed on 1");
  });

  it("lets blocks after a loop read inner blocks' outputs from the last iteration and earlier results through <loop.results>", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 3 }),
        block("acc", "task", { value: "<loop.results>" }, inside("repeat")),
        block("after", "task", { value: "<acc.value>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "acc", "body"), edge("repeat", "after")],
    );
    const run = await runHarness(document);
    expect(run.result.output).toEqual({ value: [{ value: [] }, { value: [{ value: [] }] }] });
  });

  it("skips a container on a path not taken together with every block inside it", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "never", expression: "false" }] }),
        block("repeat", "loop", { kind: "for", count: 2 }),
        block("inner", "task", {}, inside("repeat")),
      ],
      [edge("start", "check"), edge("check", "repeat", "branch:never"), edge("repeat", "inner", "body")],
    );
    const run = await runHarness(document);
    expect(run.skipped).toEqual(["repeat", "inner"]);
    expect(run.events.find((event) => event.type === "block.skipped" && event.blockId === "inner")).toMatchObject({
      reason: "its container 'repeat' was skipped",
    });
  });
});
