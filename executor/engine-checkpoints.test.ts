import { describe, expect, it } from "vitest";
import type { RunEvent, WorkflowDocument } from "@/contract";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness, type HarnessResult } from "./__fixtures__/run-harness";
import type { ExecutionRequest } from "./engine";
import { MemoryCheckpoints } from "./__fixtures__/memory-checkpoints";

const inside = (parentId: string) => ({ parentId });

const usage = (tokens: number) => ({
  tokens: { prompt: tokens, completion: 0, total: tokens },
  cost: { input: tokens / 1000, output: 0, total: tokens / 1000 },
});

/**
 * Runs until the block `hangingBlockId` starts (its handler then hangs, as if the process died
 * during it) and cancels the run there, like a crash after everything before it finished.
 */
async function runUntilHang(
  document: WorkflowDocument,
  store: MemoryCheckpoints,
  hangingBlockId: string,
  options: Partial<ExecutionRequest> = {},
) {
  const controller = new AbortController();
  const onEvent = (event: RunEvent) => {
    if (event.type === "block.started" && event.blockId === hangingBlockId) setTimeout(() => controller.abort(), 5);
  };
  const run = await runHarness(document, { checkpoints: store, signal: controller.signal, onEvent, ...options });
  expect(run.result.status).toBe("cancelled");
  expect(run.log.aborted).toEqual([hangingBlockId]);
  return run;
}

function resumed(
  store: MemoryCheckpoints,
  startedAt: number,
  options: Partial<ExecutionRequest> = {},
): Partial<ExecutionRequest> {
  return { checkpoints: store, resume: { reason: "recovered", startedAt, worker: "worker-2" }, ...options };
}

const callsOf = (run: HarnessResult, blockId: string) => run.log.calls.filter((call) => call.blockId === blockId);

describe("engine: per-block checkpoints", () => {
  it("saves every finished block, and starts a block only after its upstream block's save resolved", async () => {
    const order: string[] = [];
    const store = new MemoryCheckpoints(order);
    store.saveDelayMs = 25;
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "<start.topic>", usage: usage(10) }),
        block("b", "task", { value: "<a.value>!" }),
        block("c", "task", { value: "<b.value>?" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
    );
    const run = await runHarness(document, {
      input: { topic: "tea" },
      checkpoints: store,
      onEvent: (event) => {
        if (event.type === "block.started" || event.type === "block.completed")
          order.push(`${event.type.replace("block.", "")}:${event.blockId}`);
      },
    });
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "tea!?" } });
    expect(store.saved).toEqual(["start", "a", "b", "c"]);
    expect(order).toEqual([
      "started:start",
      "completed:start",
      "save-begin:start",
      "save-end:start",
      "started:a",
      "completed:a",
      "save-begin:a",
      "save-end:a",
      "started:b",
      "completed:b",
      "save-begin:b",
      "save-end:b",
      "started:c",
      "completed:c",
      "save-begin:c",
      "save-end:c",
    ]);
    expect(store.stored.get("a")).toEqual({ status: "completed", output: { value: "tea" }, usage: usage(10) });
    expect(store.stored.get("b")).toEqual({ status: "completed", output: { value: "tea!" } });
    // The slow saves hold each next block back: its handler starts after the save's delay, not at once.
    const [aDone] = run.completed("a");
    const [bStart] = run.started("b");
    expect(bStart!.at - aDone!.at).toBeGreaterThanOrEqual(20);
    expect(store.restored).toEqual([]);
  });

  it("resumes after a crash without running the finished blocks again, and counts their usage and the time since the first start", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "<start.topic>", usage: usage(100) }),
        block("b", "task", { value: "<a.value>!", usage: usage(20) }),
        block("c", "task", { value: "<b.value>?", usage: usage(3), index: "c", hangOn: "<variable.hangOn>" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
      { hangOn: null },
    );
    const startedAt = Date.now() - 60_000;
    const first = await runUntilHang(document, store, "c", { input: { topic: "tea" }, variables: { hangOn: "c" } });
    expect(first.log.calls.map((call) => call.blockId)).toEqual(["a", "b", "c"]);
    expect(store.saved).toEqual(["start", "a", "b"]);

    // The resumed run gets no input: the start block's output comes from its checkpoint.
    const second = await runHarness(document, resumed(store, startedAt));
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "tea!?" }, error: null });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["c"]);
    expect(callsOf(second, "c")[0]!.inputs).toEqual({ b: { value: "tea!" } });
    expect(store.restored).toEqual(["start", "a", "b"]);
    expect(store.saved).toEqual(["start", "a", "b", "c"]);
    expect(second.events[0]).toMatchObject({
      type: "run.resumed",
      runId: "run-1",
      reason: "recovered",
      worker: "worker-2",
    });
    expect(second.trail).toEqual(["run.resumed", "started:c", "completed:c", "run.completed"]);
    expect(second.result.usage.tokens.total).toBe(123);
    expect(second.result.usage.cost?.total).toBeCloseTo(0.123, 10);
    expect(second.events.at(-1)).toMatchObject({ type: "run.completed", tokens: { total: 123 } });
    expect(second.result.durationMs).toBeGreaterThanOrEqual(60_000);
  });

  it("takes the branch a restored condition chose, even when the condition would now choose otherwise", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("check", "condition", { branches: [{ id: "big", expression: "<variable.n> > 1" }, { id: "small" }] }),
        block("big", "task", { value: "big" }),
        block("small", "task", { value: "small" }),
        block("after", "task", { value: "<big.value> done", index: "after", hangOn: "<variable.hangOn>" }),
      ],
      [
        edge("start", "check"),
        edge("check", "big", "branch:big"),
        edge("check", "small", "branch:small"),
        edge("big", "after"),
      ],
      { hangOn: null, n: 0 },
    );
    const first = await runUntilHang(document, store, "after", { variables: { n: 5, hangOn: "after" } });
    expect(first.skipped).toEqual(["small"]);
    expect(store.stored.get("check")).toEqual({ status: "completed", output: { selectedBranch: "big" } });

    // Run again, `n` is 0: a condition evaluated now would choose `small`.
    const second = await runHarness(document, resumed(store, Date.now()));
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "big done" } });
    expect(second.started("check")).toEqual([]);
    expect(second.started("big")).toEqual([]);
    expect(second.started("small")).toEqual([]);
    expect(second.skipped).toEqual(["small"]);
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["after"]);
  });

  it("follows a restored router's choice", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("route", "router", { route: "<variable.route>" }),
        block("left", "task", { value: "left", index: "left", hangOn: "<variable.hangOn>" }),
        block("right", "task", { value: "right", index: "right", hangOn: "<variable.hangOn>" }),
      ],
      [edge("start", "route"), edge("route", "left"), edge("route", "right")],
      { hangOn: null, route: "right" },
    );
    await runUntilHang(document, store, "left", { variables: { route: "left", hangOn: "left" } });
    const second = await runHarness(document, resumed(store, Date.now()));
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "left" } });
    expect(second.skipped).toEqual(["right"]);
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["left"]);
  });

  it("restores a handled failure as a failure: the handler is not called again and the error path is taken", async () => {
    const store = new MemoryCheckpoints();
    const spent = usage(40);
    const document = workflow(
      [
        block("start", "start"),
        block("risky", "task", { fail: "<variable.fail>", usage: spent, value: "fine" }),
        block("ok", "task", { value: "<risky.value>" }),
        block("recover", "task", { value: "<risky.error.message>", index: "recover", hangOn: "<variable.hangOn>" }),
      ],
      [edge("start", "risky"), edge("risky", "ok"), edge("risky", "recover", "error")],
      { hangOn: null, fail: null },
    );
    const first = await runUntilHang(document, store, "recover", {
      variables: { fail: "quota exceeded", hangOn: "recover" },
    });
    expect(first.failed).toMatchObject([{ blockId: "risky", handled: true }]);
    expect(store.stored.get("risky")).toEqual({
      status: "failed",
      error: { code: "task_failed", message: "quota exceeded" },
      usage: spent,
    });

    // `fail` is unset now: a risky block run again would succeed and take the `ok` path.
    const second = await runHarness(document, resumed(store, Date.now()));
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "quota exceeded" } });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["recover"]);
    expect(callsOf(second, "recover")[0]!.inputs).toEqual({
      risky: { error: { code: "task_failed", message: "quota exceeded" } },
    });
    expect(second.skipped).toEqual(["ok"]);
    expect(second.failed).toEqual([]);
    expect(second.result.usage.tokens.total).toBe(40);
  });

  describe.each([
    { kind: "loop", config: { kind: "forEach", collection: ["x", "y", "z"] } },
    { kind: "parallel", config: { kind: "collection", collection: ["x", "y", "z"], concurrency: 1 } },
  ])("a $kind container", ({ kind, config }) => {
    const document = workflow(
      [
        block("start", "start"),
        block("each", kind, config),
        block(
          "work",
          "task",
          { value: `<${kind}.item>!`, index: `<${kind}.index>`, hangOn: "<variable.hangOn>", usage: usage(7) },
          inside("each"),
        ),
        block("after", "task", {
          value: "<work.value> <each.results>",
          index: "after",
          hangOn: "<variable.hangOn>",
          usage: usage(1),
        }),
      ],
      [edge("start", "each"), edge("each", "work", "body"), edge("each", "after")],
      { hangOn: null },
    );
    const results = [{ value: "x!" }, { value: "y!" }, { value: "z!" }];

    it("reruns only the unfinished iterations, then restores the whole container with its last iteration's outputs and usage", async () => {
      const store = new MemoryCheckpoints();
      const controller = new AbortController();
      const first = await runHarness(document, {
        checkpoints: store,
        signal: controller.signal,
        variables: { hangOn: 1 },
        onEvent: (event) => {
          if (event.type === "block.started" && event.blockId === "work" && event.iteration?.[0] === 1)
            setTimeout(() => controller.abort(), 5);
        },
      });
      expect(first.result.status).toBe("cancelled");
      expect(first.log.calls.map((call) => call.iteration)).toEqual([[0], [1]]);
      expect(store.saved).toEqual(["start", "work@0"]);

      // Second attempt: iteration 0 is restored, 1 and 2 run, the container finishes; the block after it hangs.
      const controller2 = new AbortController();
      const second = await runHarness(document, {
        ...resumed(store, Date.now()),
        signal: controller2.signal,
        variables: { hangOn: "after" },
        onEvent: (event) => {
          if (event.type === "block.started" && event.blockId === "after") setTimeout(() => controller2.abort(), 5);
        },
      });
      expect(second.result.status).toBe("cancelled");
      expect(second.log.calls.filter((call) => call.blockId === "work").map((call) => call.iteration)).toEqual([
        [1],
        [2],
      ]);
      expect(second.started("work").map((event) => (event as { iteration?: number[] }).iteration)).toEqual([[1], [2]]);
      expect(second.completed("each")).toMatchObject([{ output: { results } }]);
      expect(store.saved).toEqual(["start", "work@0", "work@1", "work@2", "each"]);
      expect(second.result.usage.tokens.total).toBe(21);

      // Third attempt: the container comes back from its own checkpoint, and `after` reads the last iteration's `work`.
      const third = await runHarness(document, resumed(store, Date.now()));
      expect(third.result).toMatchObject({ status: "succeeded", output: { value: `z! ${JSON.stringify(results)}` } });
      expect(third.log.calls.map((call) => call.blockId)).toEqual(["after"]);
      expect(third.trail).toEqual(["run.resumed", "started:after", "completed:after", "run.completed"]);
      // What the container's iterations spent counts though none of them ran in this attempt.
      expect(third.result.usage.tokens.total).toBe(22);
    });
  });

  it("keeps what a failed container's iterations spent with its checkpoint when an error edge took the failure", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 3 }),
        block("work", "task", { index: "<loop.index>", failOn: 1, usage: usage(5) }, inside("repeat")),
        block("recover", "task", { value: "<repeat.error.message>", index: "recover", hangOn: "<variable.hangOn>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "work", "body"), edge("repeat", "recover", "error")],
      { hangOn: null },
    );
    // Iteration 0 spends 5 and succeeds; iteration 1 fails.
    const first = await runUntilHang(document, store, "recover", { variables: { hangOn: "recover" } });
    expect(first.failed.map((event) => [event.blockId, event.handled])).toEqual([
      ["work", false],
      ["repeat", true],
    ]);
    const message = "Iteration 1 of 'repeat' failed at block 'work': failed on 1";
    expect(store.stored.get("repeat")).toEqual({
      status: "failed",
      error: { code: "task_failed", message },
      usage: usage(5),
    });

    const second = await runHarness(document, resumed(store, Date.now()));
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: message } });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["recover"]);
    expect(second.result.usage.tokens.total).toBe(5);
  });

  it("fails the run, naming the block, when its result cannot be stored, and starts nothing after it", async () => {
    const store = new MemoryCheckpoints();
    store.failOn = "a";
    const document = workflow(
      [block("start", "start"), block("a", "task", { value: 1 }), block("b", "task", { value: 2 })],
      [edge("start", "a"), edge("a", "b")],
    );
    const run = await runHarness(document, { checkpoints: store });
    expect(run.result.status).toBe("failed");
    expect(run.result.error).toEqual({
      code: "internal_error",
      message: "Block 'a' failed: The result of block 'a' could not be stored: disk full",
    });
    expect(run.started("b")).toEqual([]);
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["a"]);
    expect(store.saved).toEqual(["start"]);
    expect(run.trail.at(-1)).toBe("run.failed");
  });
});
