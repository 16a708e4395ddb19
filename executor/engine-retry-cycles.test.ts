import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/contract";
import { block, edge, lookupFakeType, workflow } from "./__fixtures__/fake-blocks";
import { MemoryCheckpoints } from "./__fixtures__/memory-checkpoints";
import { runHarness } from "./__fixtures__/run-harness";
import { validateWorkflow } from "./dag-builder";

/** An edge that goes back, with its cap. */
const retryEdge = (source: string, target: string, maxRetries: number, sourceHandle?: string) => ({
  ...edge(source, target, sourceHandle),
  maxRetries,
});

/**
 * The MCP-bridge seed's code review: Linter fails (its `error` edge goes to Fix), Fix's output goes
 * back to Linter, at most `maxRetries` times; a clean lint goes on to Scan. Linter fails its first
 * `lintFailures` runs (per iteration), and reads the latest fix when there is one.
 */
function codeReview(lintFailures: number, maxRetries: number, extra: { giveUp?: boolean } = {}) {
  return workflow(
    [
      block("start", "start"),
      block("linter", "task", { failTimes: lintFailures, value: "<fix.value ?? start.code>" }, { name: "Linter" }),
      block("fix", "task", { value: "fixed <linter.error.message>" }, { name: "Fix" }),
      block("scan", "task", { value: "scanned <linter.value>" }, { name: "Scan" }),
      ...(extra.giveUp ? [block("give_up", "task", { value: "gave up after <fix.value>" }, { name: "Give Up" })] : []),
    ],
    [
      edge("start", "linter"),
      edge("linter", "fix", "error"),
      retryEdge("fix", "linter", maxRetries),
      edge("linter", "scan"),
      ...(extra.giveUp ? [edge("fix", "give_up", "retriesExhausted")] : []),
    ],
  );
}

const attemptsOf = (events: RunEvent[], blockId: string) =>
  events.flatMap((event) =>
    event.type === "block.started" && event.blockId === blockId ? [event.attempt ?? null] : [],
  );

describe("engine: retry cycles", () => {
  it("runs the seed's code review: lint, fix, lint again, then the scan once with the latest pass's output", async () => {
    const run = await runHarness(codeReview(2, 3), { input: { code: "var x" } });
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "scanned fixed flaky failure 2" } });
    expect(attemptsOf(run.events, "linter")).toEqual([1, 2, 3]);
    expect(attemptsOf(run.events, "fix")).toEqual([1, 2]);
    expect(attemptsOf(run.events, "scan")).toEqual([null]);
    // Each pass reads the pass before it: Linter's second run lints the first fix.
    const linterCalls = run.log.calls.filter((call) => call.blockId === "linter");
    expect(linterCalls.map((call) => call.config.value)).toEqual([
      "var x",
      "fixed flaky failure 1",
      "fixed flaky failure 2",
    ]);
    // The head of a later pass gets the tail's output as an input, besides its own inputs.
    expect(linterCalls[1]!.inputs).toEqual({ start: { code: "var x" }, fix: { value: "fixed flaky failure 1" } });
    // What follows the cycle is decided once, after the last pass: Scan is not skipped by the failed passes.
    expect(run.skipped).toEqual(["fix"]);
    expect(run.trail.indexOf("started:scan")).toBeGreaterThan(run.trail.lastIndexOf("completed:linter"));
    const linterSpans = run.spans.filter((span) => span.blockId === "linter" && span.status !== "running");
    expect(linterSpans.map((span) => [span.attempt, span.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
      [3, "succeeded"],
    ]);
  });

  it("fails the edge's source when the cap is reached, naming the edge and its cap", async () => {
    const run = await runHarness(codeReview(10, 2), { input: { code: "var x" } });
    expect(run.result.status).toBe("failed");
    expect(run.result.error).toMatchObject({ code: "retries_exhausted" });
    expect(run.result.error!.message).toContain("The retry edge 'Fix' -> 'Linter' was already taken 2 times");
    expect(attemptsOf(run.events, "linter")).toEqual([1, 2, 3]);
    expect(attemptsOf(run.events, "fix")).toEqual([1, 2, 3]);
    expect(run.started("scan")).toEqual([]);
    expect(run.failed.at(-1)).toMatchObject({ blockId: "fix", error: { code: "retries_exhausted" } });
  });

  it("takes the retriesExhausted handle when the cap is reached and it is connected", async () => {
    const run = await runHarness(codeReview(10, 1, { giveUp: true }), { input: { code: "var x" } });
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "gave up after fixed flaky failure 2" } });
    expect(attemptsOf(run.events, "linter")).toEqual([1, 2]);
    expect(attemptsOf(run.events, "fix")).toEqual([1, 2]);
    expect(run.skipped).toEqual(["scan"]);
  });

  it("runs a retry cycle inside a loop: each iteration has its own passes", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", "loop", { kind: "forEach", collection: ["a", "b"] }, { name: "Each" }),
        block(
          "linter",
          "task",
          { failTimes: 1, value: "<fix.value ?? loop.item>" },
          { name: "Linter", parentId: "each" },
        ),
        block("fix", "task", { value: "fixed <loop.item>" }, { name: "Fix", parentId: "each" }),
        block("after", "task", { value: "<each.results>" }, { name: "After" }),
      ],
      [
        edge("start", "each"),
        edge("each", "linter", "body"),
        edge("linter", "fix", "error"),
        retryEdge("fix", "linter", 2),
        edge("each", "after"),
      ],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({
      status: "succeeded",
      output: { value: [{ value: "fixed a" }, { value: "fixed b" }] },
    });
    const linterStarts = run.started("linter") as Array<Extract<RunEvent, { type: "block.started" }>>;
    expect(linterStarts.map((event) => [event.iteration, event.attempt])).toEqual([
      [[0], 1],
      [[0], 2],
      [[1], 1],
      [[1], 2],
    ]);
  });

  it("resumes a durable run inside a retry cycle from each pass's own checkpoints", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block(
          "linter",
          "task",
          {
            failOn: "var x",
            value: "<fix.value ?? start.code>",
            index: "<fix.value ?? start.code>",
            hangOn: "<variable.hangOn>",
          },
          { name: "Linter" },
        ),
        block("fix", "task", { value: "fixed" }, { name: "Fix" }),
        block("scan", "task", { value: "scanned <linter.value>" }, { name: "Scan" }),
      ],
      [edge("start", "linter"), edge("linter", "fix", "error"), retryEdge("fix", "linter", 3), edge("linter", "scan")],
      { hangOn: null },
    );
    const controller = new AbortController();
    const first = await runHarness(document, {
      input: { code: "var x" },
      checkpoints: store,
      signal: controller.signal,
      variables: { hangOn: "fixed" },
      onEvent: (event) => {
        if (event.type === "block.started" && event.blockId === "linter" && event.attempt === 2)
          setTimeout(() => controller.abort(), 5);
      },
    });
    expect(first.result.status).toBe("cancelled");
    expect(store.saved).toEqual(["start", "linter", "fix"]);

    const second = await runHarness(document, {
      checkpoints: store,
      resume: { reason: "recovered", startedAt: Date.now(), worker: "worker-2" },
    });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "scanned fixed" } });
    // Pass 1 came from its checkpoints; pass 2 ran and was stored under its own keys.
    expect(store.restored).toEqual(["start", "linter", "fix"]);
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["linter", "scan"]);
    expect(store.saved).toEqual(["start", "linter", "fix", "linter~2", "scan"]);
    expect(attemptsOf(second.events, "linter")).toEqual([2]);
  });
});

describe("validation of retry edges", () => {
  it("refuses an uncapped cycle, naming it and saying how to cap it", () => {
    const document = workflow(
      [block("start", "start"), block("a", "task"), block("b", "task")],
      [edge("start", "a"), edge("a", "b"), edge("b", "a")],
    );
    expect(validateWorkflow(document, lookupFakeType)).toEqual([
      {
        path: "edges[2]",
        message:
          "A cycle runs through 'a' → 'b' → 'a'; repeat work with a loop container instead, or give the edge that goes back a cap (maxRetries)",
      },
    ]);
  });

  it("refuses a cap over 100 when the document is read", () => {
    expect(() =>
      workflow([block("start", "start"), block("a", "task")], [{ ...edge("start", "a"), maxRetries: 101 }]),
    ).toThrow(/must be at most 100/);
  });

  it("refuses a cap on an edge that does not go back, and an edge entering a cycle past its head", () => {
    const forward = workflow(
      [block("start", "start"), block("a", "task"), block("b", "task")],
      [edge("start", "a"), retryEdge("a", "b", 2)],
    );
    expect(validateWorkflow(forward, lookupFakeType)).toEqual([
      {
        path: "edges[1].maxRetries",
        message:
          "The edge 'a' -> 'b' has maxRetries but does not go back to an earlier block ('a' does not come after 'b'); remove maxRetries",
      },
    ]);
    const entered = workflow(
      [block("start", "start"), block("a", "task"), block("b", "task"), block("c", "task")],
      [edge("start", "a"), edge("a", "b"), edge("b", "c"), retryEdge("c", "a", 2), edge("start", "b")],
    );
    expect(validateWorkflow(entered, lookupFakeType)).toEqual([
      {
        path: "edges[4]",
        message:
          "The edge 'start' -> 'b' enters the retry cycle 'c' -> 'a' at 'b'; a retry cycle is entered only at its first block 'a'",
      },
    ]);
  });

  it("offers the retriesExhausted handle only on a retry edge's source", () => {
    const document = workflow(
      [block("start", "start"), block("a", "task"), block("b", "task")],
      [edge("start", "a"), edge("a", "b", "retriesExhausted")],
    );
    expect(validateWorkflow(document, lookupFakeType)).toEqual([
      expect.objectContaining({ path: "edges[1].sourceHandle" }),
    ]);
  });
});
