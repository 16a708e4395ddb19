import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/contract";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { MemoryCheckpoints } from "./__fixtures__/memory-checkpoints";
import { runHarness } from "./__fixtures__/run-harness";

const inside = (parentId: string) => ({ parentId });

/** First attempt: runs until `hangingBlockId` starts (its handler hangs, like a process that died there), then stops. */
async function crashAt(
  document: WorkflowDocument,
  store: MemoryCheckpoints,
  hangingBlockId: string,
  variables: Record<string, unknown>,
  iteration?: number,
) {
  const controller = new AbortController();
  const run = await runHarness(document, {
    checkpoints: store,
    signal: controller.signal,
    variables,
    onEvent: (event) => {
      if (event.type !== "block.started" || event.blockId !== hangingBlockId) return;
      if (iteration === undefined || event.iteration?.[0] === iteration) setTimeout(() => controller.abort(), 5);
    },
  });
  expect(run.result.status).toBe("cancelled");
  return run;
}

function resume(document: WorkflowDocument, store: MemoryCheckpoints, variables: Record<string, unknown>) {
  return runHarness(document, {
    checkpoints: store,
    resume: { reason: "recovered", startedAt: Date.now(), worker: "worker-2" },
    variables,
  });
}

describe("engine: Set Variables in durable runs", () => {
  it("restores the variables a restored Set Variables block assigned, without running it again", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("set", "setvars", { assignments: [{ name: "picked", value: "<variable.source>" }] }),
        block("wait", "task", { index: "wait", hangOn: "<variable.hangOn>" }),
        block("read", "task", { value: "<variable.picked>" }),
      ],
      [edge("start", "set"), edge("set", "wait"), edge("wait", "read")],
      { source: null, hangOn: null, picked: "unset" },
    );
    await crashAt(document, store, "wait", { source: "first attempt", hangOn: "wait" });
    expect(store.stored.get("set")).toEqual({ status: "completed", output: { picked: "first attempt" } });

    const second = await resume(document, store, { source: "second attempt" });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: "first attempt" } });
    expect(second.started("set")).toEqual([]);
  });

  it("restores a finished loop's assignments with its checkpoint", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 2 }),
        block(
          "bump",
          "setvars",
          { assignments: [{ name: "count", expression: "<variable.count> + 1" }] },
          inside("repeat"),
        ),
        block("after", "task", { value: "<variable.count>", index: "after", hangOn: "<variable.hangOn>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "bump", "body"), edge("repeat", "after")],
      { count: 0, hangOn: null },
    );
    await crashAt(document, store, "after", { hangOn: "after" });
    expect(store.stored.get("repeat")).toMatchObject({ status: "completed", variables: { count: 2 } });

    // Had the loop run again from the new starting value, `after` would read 102.
    const second = await resume(document, store, { count: 100 });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: 2 } });
    expect(second.started("bump")).toEqual([]);
  });

  it("carries a restored iteration's assignments into the iterations that run again", async () => {
    const store = new MemoryCheckpoints();
    const document = workflow(
      [
        block("start", "start"),
        block("repeat", "loop", { kind: "for", count: 2 }),
        block(
          "bump",
          "setvars",
          { assignments: [{ name: "count", expression: "<variable.count> + 1" }] },
          inside("repeat"),
        ),
        block("wait", "task", { index: "<loop.index>", hangOn: "<variable.hangOn>" }, inside("repeat")),
        block("after", "task", { value: "<variable.count>" }),
      ],
      [edge("start", "repeat"), edge("repeat", "wait", "body"), edge("wait", "bump"), edge("repeat", "after")],
      { count: 0, hangOn: null },
    );
    await crashAt(document, store, "wait", { hangOn: 1 }, 1);
    expect(store.stored.get("bump@0")).toEqual({ status: "completed", output: { count: 1 } });
    expect(store.stored.has("bump@1")).toBe(false);

    // Iteration 1 runs again and starts from iteration 0's restored assignment, not from the new starting value.
    const second = await resume(document, store, { count: 100 });
    expect(second.result).toMatchObject({ status: "succeeded", output: { value: 2 } });
    expect(second.completed("bump")).toMatchObject([{ output: { count: 2 } }]);
  });
});
