import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/contract";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";
import { rerunPlan } from "./rerun-plan";
import { MemoryCheckpoints } from "./__fixtures__/memory-checkpoints";

const usage = (tokens: number) => ({
  tokens: { prompt: tokens, completion: 0, total: tokens },
  cost: { input: tokens / 1000, output: 0, total: tokens / 1000 },
});

/** The source run's checkpoints, offered to a new run as the run service does: only the keys the plan reuses, only completed ones. */
function rerunStore(document: WorkflowDocument, source: MemoryCheckpoints, blockId: string): MemoryCheckpoints {
  const plan = rerunPlan(document.blocks, document.edges, blockId)!;
  const store = new MemoryCheckpoints();
  store.reused = {
    runId: "run-source",
    restore: (key) => {
      const found = source.stored.get(key);
      return found?.status === "completed" && plan.reuses(key) ? structuredClone(found) : undefined;
    },
  };
  return store;
}

const chain = workflow(
  [
    block("start", "start"),
    block("a", "task", { value: "<start.topic>", usage: usage(100) }),
    block("b", "task", { value: "<a.value>!", usage: usage(20) }),
    block("c", "task", { value: "<b.value>?", usage: usage(3) }),
  ],
  [edge("start", "a"), edge("a", "b"), edge("b", "c")],
);

describe("engine: run from a block", () => {
  it("reuses the upstream results without calling their handlers, shows them as reused, and counts only what it spent", async () => {
    const source = new MemoryCheckpoints();
    const first = await runHarness(chain, { input: { topic: "tea" }, checkpoints: source });
    expect(first.result.usage.tokens.total).toBe(123);

    const store = rerunStore(chain, source, "b");
    const second = await runHarness(chain, { input: { topic: "tea" }, checkpoints: store });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "tea!?" } });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["b", "c"]);
    expect(second.trail).toEqual([
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
    const [reusedA] = second.completed("a");
    expect(reusedA).toMatchObject({
      output: { value: "tea" },
      reused: { runId: "run-source", tokens: { total: 100 } },
    });
    expect(reusedA).not.toHaveProperty("tokens");
    expect(second.completed("b")[0]).not.toHaveProperty("reused");
    expect(
      second.spans
        .filter((span) => span.reusedFrom === "run-source" && span.status === "succeeded")
        .map((span) => span.blockId),
    ).toEqual(["start", "a"]);
    expect(second.spans.find((span) => span.blockId === "a" && span.status === "succeeded")).not.toHaveProperty(
      "usage",
    );
    // 20 (b) + 3 (c): a's 100 were spent by the source run.
    expect(second.result.usage.tokens.total).toBe(23);
    // The reused results are the new run's own checkpoints, without their usage (a resumed attempt counts nothing for them).
    expect(store.stored.get("a")).toEqual({ status: "completed", output: { value: "tea" } });
    expect(store.stored.get("b")).toEqual({ status: "completed", output: { value: "tea!" }, usage: usage(20) });
  });

  it("a re-run resumed after its process died shows no reused block twice and still counts only what it spent", async () => {
    const hanging = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "<start.topic>", usage: usage(100) }),
        block("b", "task", { value: "<a.value>!", usage: usage(20) }),
        block("c", "task", { value: "<b.value>?", usage: usage(3), index: "c", hangOn: "<variable.hangOn>" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
      { hangOn: null },
    );
    const source = new MemoryCheckpoints();
    await runHarness(hanging, { input: { topic: "tea" }, checkpoints: source });

    // The re-run from b dies while c runs (c hangs and the run is stopped there).
    const store = rerunStore(hanging, source, "b");
    const controller = new AbortController();
    const first = await runHarness(hanging, {
      input: { topic: "tea" },
      checkpoints: store,
      variables: { hangOn: "c" },
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "block.started" && event.blockId === "c") setTimeout(() => controller.abort(), 5);
      },
    });
    expect(first.result.status).toBe("cancelled");
    expect(first.completed("a")[0]).toMatchObject({ reused: { runId: "run-source" } });

    const second = await runHarness(hanging, {
      checkpoints: store,
      resume: { reason: "recovered", startedAt: Date.now(), worker: "worker-2" },
    });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "tea!?" } });
    expect(second.trail).toEqual(["run.resumed", "started:c", "completed:c", "run.completed"]);
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["c"]);
    // b (20, run by the re-run) and c (3); a's 100 stay the source run's.
    expect(second.result.usage.tokens.total).toBe(23);
  });

  it("runs a changed chosen block on the current draft, and a block that had no result (it failed) runs again", async () => {
    const source = new MemoryCheckpoints();
    const failing = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "A" }),
        block("b", "task", { fail: "broken" }),
        block("c", "task", { value: "<b.value>+<a.value>" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
    );
    const first = await runHarness(failing, { checkpoints: source });
    expect(first.result.status).toBe("failed");
    expect(source.stored.has("b")).toBe(false);

    const fixed = workflow(
      [
        block("start", "start"),
        block("a", "task", { value: "A" }),
        block("b", "task", { value: "B" }),
        block("c", "task", { value: "<b.value>+<a.value>" }),
      ],
      [edge("start", "a"), edge("a", "b"), edge("b", "c")],
    );
    // Running from c: b is upstream but had no result in the source run, so it runs.
    const second = await runHarness(fixed, { checkpoints: rerunStore(fixed, source, "c") });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "B+A" } });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["b", "c"]);
  });

  it("runs a block inside a loop from its container: the container and its body run again, what precedes it is reused", async () => {
    const looped = workflow(
      [
        block("start", "start"),
        block("prep", "task", { value: "p", usage: usage(7) }),
        block("repeat", "loop", { kind: "for", count: 2 }),
        block("work", "task", { value: "<loop.index>" }, { parentId: "repeat" }),
        block("after", "task", { value: "<prep.value> done" }),
      ],
      [edge("start", "prep"), edge("prep", "repeat"), edge("repeat", "work", "body"), edge("repeat", "after")],
    );
    const source = new MemoryCheckpoints();
    await runHarness(looped, { checkpoints: source });
    expect(rerunPlan(looped.blocks, looped.edges, "work")).toMatchObject({ fromBlockId: "repeat" });

    const second = await runHarness(looped, { checkpoints: rerunStore(looped, source, "work") });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "p done" } });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["work", "work", "after"]);
    expect(second.completed("prep")[0]).toMatchObject({ reused: { runId: "run-source" } });
    expect(second.result.usage.tokens.total).toBe(0);
  });

  it("carries a reused loop's variable assignments out of it, and keeps them in the new run's checkpoint", async () => {
    const counting = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 3 }),
        block(
          "bump",
          "setvars",
          { assignments: [{ name: "count", expression: "<variable.count> + 1" }] },
          { parentId: "repeat" },
        ),
        block("after", "task", { value: "<variable.count>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "bump", "body"), edge("repeat", "after")],
      { count: 0 },
    );
    const source = new MemoryCheckpoints();
    const first = await runHarness(counting, { checkpoints: source });
    expect(first.result).toMatchObject({ status: "succeeded", output: { value: 3 } });

    const store = rerunStore(counting, source, "after");
    const second = await runHarness(counting, { checkpoints: store });
    expect(second.log.calls.map((call) => call.blockId)).toEqual(["after"]);
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: 3 } });
    expect(store.stored.get("repeat")).toMatchObject({ status: "completed", variables: { count: 3 } });
  });

  it("fails a reused block whose out edge's condition cannot be evaluated on the draft, before reporting it completed", async () => {
    const source = new MemoryCheckpoints();
    await runHarness(chain, { input: { topic: "tea" }, checkpoints: source });
    const broken = workflow(chain.blocks, [
      edge("start", "a"),
      { ...edge("a", "b"), condition: "output.missing.size > 2" },
      edge("b", "c"),
    ]);
    const store = rerunStore(broken, source, "b");
    const second = await runHarness(broken, { input: { topic: "tea" }, checkpoints: store });
    expect(second.result.status).toBe("failed");
    expect(second.completed("a")).toEqual([]);
    expect(second.failed).toMatchObject([{ blockId: "a", handled: false, error: { code: "invalid_expression" } }]);
    expect(second.failed[0]!.error.message).toContain("edge 'a' -> 'b'");
    expect(store.stored.has("a")).toBe(false);
    expect(second.log.calls).toEqual([]);
  });
});

describe("rerunPlan", () => {
  it("executes the chosen block, everything after it and the blocks inside those; reuses the rest that the draft still has", () => {
    const document = workflow(
      [block("start", "start"), block("a", "task"), block("side", "task"), block("b", "task"), block("c", "task")],
      [edge("start", "a"), edge("start", "side"), edge("a", "b"), edge("b", "c", "error")],
    );
    const plan = rerunPlan(document.blocks, document.edges, "b")!;
    expect([...plan.executes].sort()).toEqual(["b", "c"]);
    expect(["start", "a", "side", "b", "c", "gone", "a@1.0", "b@0"].filter((key) => plan.reuses(key))).toEqual([
      "start",
      "a",
      "side",
      "a@1.0",
    ]);
    expect(rerunPlan(document.blocks, document.edges, "missing")).toBeNull();
  });
});
