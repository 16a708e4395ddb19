import { describe, expect, it } from "vitest";
import { block, edge, lookupFakeType, workflow } from "./__fixtures__/fake-blocks";
import { MemoryCheckpoints } from "./__fixtures__/memory-checkpoints";
import { runHarness } from "./__fixtures__/run-harness";
import { validateWorkflow } from "./dag-builder";

const when = (source: string, target: string, condition: string, sourceHandle?: string) => ({
  ...edge(source, target, sourceHandle),
  condition,
});
const inside = (parentId: string) => ({ parentId });

describe("engine: edge conditions", () => {
  it("takes an edge only when its condition holds over the source's output", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("call", "task", { output: { status: 200, body: "ok" } }),
        block("ok", "task"),
        block("bad", "task"),
        block("always", "task"),
      ],
      [
        edge("start", "call"),
        when("call", "ok", "output.status == 200"),
        when("call", "bad", "output.status >= 400"),
        edge("call", "always"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.log.calls.map((call) => call.blockId).sort()).toEqual(["always", "call", "ok"]);
    expect(run.skipped).toEqual(["bad"]);
  });

  it("treats a blank condition as none", async () => {
    const document = workflow(
      [block("start", "start"), block("a", "task"), block("b", "task")],
      [edge("start", "a"), when("a", "b", "  ")],
    );
    expect(validateWorkflow(document, lookupFakeType)).toEqual([]);
    const run = await runHarness(document);
    expect(run.started("b")).toHaveLength(1);
  });

  it("needs both the handle taken and the condition true", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("pick", "picker", { offers: ["choice:yes", "choice:no"], handles: ["choice:no", "out"] }),
        block("noButFalse", "task"),
        block("yesButTrue", "task"),
        block("after", "task"),
      ],
      [
        edge("start", "pick"),
        when("pick", "noButFalse", "output.handles.length > 5", "choice:no"),
        when("pick", "yesButTrue", "true", "choice:yes"),
        when("pick", "after", "contains(output.handles, 'choice:no')"),
      ],
    );
    const run = await runHarness(document);
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["after"]);
    expect(new Set(run.skipped)).toEqual(new Set(["noButFalse", "yesButTrue"]));
  });

  it("reads the error on an error edge's condition", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("call", "task", { fail: "upstream down" }),
        block("onTaskFailure", "task"),
        block("onTimeout", "task"),
      ],
      [
        edge("start", "call"),
        when("call", "onTaskFailure", "output.error.code == 'task_failed'", "error"),
        when("call", "onTimeout", "output.error.code == 'timeout'", "error"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.started("onTaskFailure")).toHaveLength(1);
    expect(run.skipped).toEqual(["onTimeout"]);
  });

  it("fails the source block, naming the edge, when its condition cannot be evaluated", async () => {
    const document = workflow(
      [block("start", "start"), block("call", "task", { output: { status: 200 } }), block("next", "task")],
      [edge("start", "call"), when("call", "next", "output.body.size > 2")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.completed("call")).toEqual([]);
    expect(run.failed).toHaveLength(1);
    expect(run.failed[0]).toMatchObject({ blockId: "call", error: { code: "invalid_expression" } });
    expect(run.failed[0]!.error.message).toContain("edge 'call' -> 'next'");
    expect(run.failed[0]!.error.message).toContain("Cannot read 'size' of null");
    expect(run.started("next")).toEqual([]);
  });

  it("lets the source's error edge take a condition that cannot be evaluated", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("call", "task", { output: { status: 200 } }),
        block("next", "task"),
        block("fallback", "task"),
      ],
      [edge("start", "call"), when("call", "next", "output.body.size > 2"), edge("call", "fallback", "error")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.failed[0]).toMatchObject({ blockId: "call", handled: true });
    expect(run.started("fallback")).toHaveLength(1);
    expect(run.skipped).toEqual(["next"]);
  });

  it("routes a container's out edges on its results", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "for", count: 2 }),
        block("inner", "task", {}, inside("each")),
        block("two", "task"),
        block("none", "task"),
      ],
      [
        edge("start", "each"),
        edge("each", "inner", "body"),
        when("each", "two", "length(output.results) == 2"),
        when("each", "none", "isEmpty(output.results)"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.started("two")).toHaveLength(1);
    expect(run.skipped).toEqual(["none"]);
  });

  it("fails the run naming the edge when a container's out condition cannot be evaluated", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "for", count: 1 }),
        block("inner", "task", {}, inside("each")),
        block("after", "task"),
      ],
      [edge("start", "each"), edge("each", "inner", "body"), when("each", "after", "output.results.first.value")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.result.error?.message).toContain("edge 'each' -> 'after'");
    // The container fails in the open, as any block whose condition breaks: block.failed, never block.completed.
    expect(run.completed("each")).toEqual([]);
    expect(run.failed).toMatchObject([{ blockId: "each", handled: false, error: { code: "invalid_expression" } }]);
    expect(run.trail.filter((step) => step.endsWith(":each"))).toEqual(["started:each", "failed:each"]);
    expect(run.spans.findLast((span) => span.blockId === "each")).toMatchObject({ status: "failed" });
    expect(run.started("after")).toEqual([]);
  });

  it("lets a container's error edge take its broken out condition", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "for", count: 1 }),
        block("inner", "task", {}, inside("each")),
        block("after", "task"),
        block("fallback", "task"),
      ],
      [
        edge("start", "each"),
        edge("each", "inner", "body"),
        when("each", "after", "output.results.first.value"),
        edge("each", "fallback", "error"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("succeeded");
    expect(run.completed("each")).toEqual([]);
    expect(run.failed).toMatchObject([{ blockId: "each", handled: true, error: { code: "invalid_expression" } }]);
    expect(run.started("fallback")).toHaveLength(1);
    expect(run.skipped).toContain("after");
  });

  it("keeps a container failed by its broken out condition as a handled failure, not a completed result", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "for", count: 1 }),
        block("inner", "task", {}, inside("each")),
        block("fallback", "task"),
      ],
      [
        edge("start", "each"),
        edge("each", "inner", "body"),
        when("each", "fallback", "output.results.first.value"),
        edge("each", "fallback", "error"),
      ],
    );
    const store = new MemoryCheckpoints();
    await runHarness(document, { checkpoints: store });
    expect(store.stored.get("each")).toMatchObject({ status: "failed", error: { code: "invalid_expression" } });
  });

  it("routes a restored result's broken out condition as a failure: the error edge takes it, or the run fails", async () => {
    const resume = { reason: "recovered" as const, startedAt: Date.now(), worker: "worker-2" };
    const restored = () => {
      const store = new MemoryCheckpoints();
      store.stored.set("start", { status: "completed", output: {} });
      store.stored.set("call", { status: "completed", output: { status: 200 } });
      return store;
    };
    const blocks = [block("start", "start"), block("call", "task"), block("next", "task"), block("fallback", "task")];
    const broken = when("call", "next", "output.body.size > 2");
    const handled = await runHarness(
      workflow(blocks, [edge("start", "call"), broken, edge("call", "fallback", "error")]),
      { checkpoints: restored(), resume },
    );
    expect(handled.result.status).toBe("succeeded");
    expect(handled.log.calls.map((call) => call.blockId)).toEqual(["fallback"]);
    const unhandled = await runHarness(workflow(blocks, [edge("start", "call"), broken]), {
      checkpoints: restored(),
      resume,
    });
    expect(unhandled.result.status).toBe("failed");
    expect(unhandled.result.error?.message).toContain("edge 'call' -> 'next'");
  });

  it("fails the run when every error edge's condition is false: the failure is not handled", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("call", "task", { fail: "upstream down" }),
        block("onTimeout", "task"),
        block("onDenied", "task"),
      ],
      [
        edge("start", "call"),
        when("call", "onTimeout", "output.error.code == 'timeout'", "error"),
        when("call", "onDenied", "output.error.code == 'forbidden'", "error"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.result.error?.message).toContain("upstream down");
    expect(run.failed).toMatchObject([{ blockId: "call", handled: false }]);
    expect(run.started("onTimeout")).toEqual([]);
    expect(run.started("onDenied")).toEqual([]);
  });

  it("fails a loop whose body block's error edges all have false conditions", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "for", count: 2 }),
        block("inner", "task", { fail: "broken" }, inside("each")),
        block("onTimeout", "task", {}, inside("each")),
        block("after", "task"),
      ],
      [
        edge("start", "each"),
        edge("each", "inner", "body"),
        when("inner", "onTimeout", "output.error.code == 'timeout'", "error"),
        edge("each", "after"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.failed.map((event) => [event.blockId, event.handled])).toEqual([
      ["inner", false],
      ["each", false],
    ]);
    expect(run.started("after")).toEqual([]);
  });
});

describe("edge conditions at save time", () => {
  const blocks = [
    block("start", "start"),
    block("a", "task", {}, { name: "Lint" }),
    block("b", "task", {}, { name: "Fix Lint" }),
  ];

  it("refuses a condition that does not parse, naming the edge", () => {
    const issues = validateWorkflow(
      workflow(blocks, [edge("start", "a"), when("a", "b", "output.status ==")]),
      lookupFakeType,
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: "edges[1].condition" });
    expect(issues[0]!.message).toMatch(/^The condition of the edge 'Lint' -> 'Fix Lint' does not parse: /);
  });

  it("refuses references and names other than output, saying how to read the output", () => {
    const withReference = validateWorkflow(
      workflow(blocks, [edge("start", "a"), when("a", "b", "<Lint.status> == 200")]),
      lookupFakeType,
    );
    expect(withReference[0]!.message).toContain(
      "<Lint.status> is a reference; an edge condition reads its source's output as output.<field>",
    );
    const bareName = validateWorkflow(
      workflow(blocks, [edge("start", "a"), when("a", "b", "status == 200")]),
      lookupFakeType,
    );
    expect(bareName[0]!.message).toContain("Unknown name 'status' at position 1");
  });

  it("refuses a condition on a container's body edge", () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "for", count: 1 }),
        block("inner", "task", {}, inside("each")),
      ],
      [edge("start", "each"), when("each", "inner", "true", "body")],
    );
    const issues = validateWorkflow(document, lookupFakeType);
    expect(issues).toEqual([
      { path: "edges[1].condition", message: expect.stringContaining("'each' -> 'inner' cannot be used: a body edge") },
    ]);
  });

  it("accepts comparisons that look like references", () => {
    const issues = validateWorkflow(
      workflow(blocks, [edge("start", "a"), when("a", "b", "output.count < 3 && output.limit > 2")]),
      lookupFakeType,
    );
    expect(issues).toEqual([]);
  });
});
