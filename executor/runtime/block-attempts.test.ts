import { describe, expect, it } from "vitest";
import type { Usage } from "@/contract";
import { executeWorkflow } from "../engine";
import { BlockExecutionError, bindHandler, type BlockHandler } from "@/core";
import type { BlockTypeInfo } from "../block-type";
import { block, createHandlers, edge, lookupFakeType, workflow } from "../__fixtures__/fake-blocks";

const usage = (total: number): Usage => ({
  tokens: { prompt: total, completion: 0, total },
  cost: { input: total / 1000, output: 0, total: total / 1000 },
});

/** Runs start -> spender with `spender` as the task handler, under the given block policy. */
async function runSpender(
  spender: BlockHandler<Record<string, unknown>>,
  policy: Parameters<typeof block>[3],
  signal?: AbortSignal,
) {
  const { lookup } = createHandlers();
  return executeWorkflow({
    document: workflow([block("start", "start"), block("spender", "task", {}, policy)], [edge("start", "spender")]),
    lookupBlockType: lookupFakeType,
    lookupHandler: (type) =>
      type === "task"
        ? bindHandler(lookupFakeType("task") as BlockTypeInfo<Record<string, unknown>>, spender)
        : lookup(type),
    observer: { event: () => {}, span: () => {} },
    runId: "run-1",
    workflowId: "wf-1",
    ...(signal ? { signal } : {}),
  });
}

/** Spends 10 tokens and fails as a broken stream would (retried), until `succeedOn`. */
function flakySpender(succeedOn = Infinity): BlockHandler<Record<string, unknown>> {
  let attempt = 0;
  return async () => {
    attempt += 1;
    if (attempt >= succeedOn) return { output: { ok: true }, usage: usage(5) };
    throw new BlockExecutionError("the stream broke after the answer was paid for", { spent: usage(10) });
  };
}

/** Ignores nothing: on its signal it stops, reporting what it spent (a Workflow block's cancelled child) a little later. */
const stoppingSpender: BlockHandler<Record<string, unknown>> = ({ context }) =>
  new Promise((_, reject) => {
    context.signal.addEventListener("abort", () => {
      setTimeout(
        () => reject(new BlockExecutionError("the child was cancelled", { code: "cancelled", spent: usage(7) })),
        50,
      );
    });
  });

describe("what a block's attempts spent", () => {
  it("counts every failed attempt's spending when the retries run out", async () => {
    const result = await runSpender(flakySpender(), { retry: { attempts: 3, backoffMs: 0 } });
    expect(result.status).toBe("failed");
    expect(result.usage.tokens.total).toBe(30);
  });

  it("counts the failed attempts' spending with the one that succeeded", async () => {
    const result = await runSpender(flakySpender(3), { retry: { attempts: 3, backoffMs: 0 } });
    expect(result.status).toBe("succeeded");
    expect(result.usage.tokens.total).toBe(25);
  });

  it("keeps what a timed-out handler reports spending as it stops", async () => {
    const result = await runSpender(stoppingSpender, { timeoutMs: 20 });
    expect(result).toMatchObject({ status: "failed", error: { code: "timeout" } });
    expect(result.usage.tokens.total).toBe(7);
  });

  it("keeps what a handler reports spending as the run is cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await runSpender(stoppingSpender, {}, controller.signal);
    expect(result.status).toBe("cancelled");
    expect(result.usage.tokens.total).toBe(7);
  });
});
