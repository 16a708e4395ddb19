import { describe, expect, it } from "vitest";
import type { Usage } from "@/contract";
import { TrellisError, type BlockMemo } from "@/executor";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import type { RunWorkflowRequest, WorkflowCalls, WorkflowRunResult } from "@/tools/workflow";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createWorkflowBlockHandler } from "./handler";

const spent: Usage = {
  tokens: { prompt: 8, completion: 2, total: 10 },
  cost: { input: 0.008, output: 0.002, total: 0.01 },
};

/** Calls that run "Helper" (one start input with a default) and record each child run asked for. */
function fakeCalls(overrides: Partial<WorkflowCalls> = {}) {
  const requests: RunWorkflowRequest[] = [];
  const calls: WorkflowCalls = {
    describeWorkflow: async (workflowId) => ({
      id: workflowId,
      name: "Helper",
      inputs: [{ name: "text", type: "string", default: "fallback" }],
    }),
    callChain: (_runId, workflowId) => [{ workflowId, workflowName: "Caller" }],
    runWorkflow: async (request): Promise<WorkflowRunResult> => {
      requests.push(request);
      return {
        runId: `child-${requests.length}`,
        status: "succeeded",
        output: { answer: "done" },
        error: null,
        usage: spent,
      };
    },
    ...overrides,
  };
  return { calls, requests };
}

/** A durable run's memo over one store, as a resumed attempt at the same block sees it. */
function memoOver(store: Map<string, unknown>): BlockMemo {
  const counts = new Map<string, number>();
  return {
    next(kind) {
      const index = counts.get(kind) ?? 0;
      counts.set(kind, index + 1);
      return `${kind}#${index}`;
    },
    recall: (key) => store.get(key),
    remember: async (key, value) => void store.set(key, value),
  };
}

function callBlock(calls: WorkflowCalls, inputs: Record<string, unknown>, memo?: BlockMemo, abortedBy?: unknown) {
  const handler = withConfigParsing("workflow", createWorkflowBlockHandler({ workflows: calls }));
  const context = createInMemoryHandlerContext({
    block: { type: "workflow", name: "Child" },
    ...(memo ? { memo } : {}),
  });
  if (abortedBy !== undefined) context.abort(abortedBy);
  return handler({ config: { workflowId: "helper", inputs }, inputs: {}, context });
}

describe("the Workflow block handler", () => {
  it("leaves null inputs out, so the child's start-input defaults apply", async () => {
    const { calls, requests } = fakeCalls();
    await callBlock(calls, { text: null, extra: "kept", empty: "" });
    expect(requests[0]!.input).toEqual({ extra: "kept", empty: "" });
  });

  it("reuses the child an earlier attempt ran (kept in the block memo) instead of starting a second one", async () => {
    const { calls, requests } = fakeCalls();
    const store = new Map<string, unknown>();
    const first = await callBlock(calls, { text: "hi" }, memoOver(store));
    const resumed = await callBlock(calls, { text: "hi" }, memoOver(store));
    expect(requests).toHaveLength(1);
    expect(resumed).toEqual(first);
    expect(resumed).toMatchObject({
      output: { output: { answer: "done" }, runId: "child-1", workflowId: "helper" },
      usage: spent,
    });
  });

  it("gives a remembered failed child's error again, with what it spent", async () => {
    const failed: WorkflowRunResult = {
      runId: "child-9",
      status: "failed",
      output: null,
      error: { code: "timeout", message: "too slow" },
      usage: spent,
    };
    const { calls, requests } = fakeCalls({ runWorkflow: async () => failed });
    const store = new Map<string, unknown>();
    await expect(callBlock(calls, {}, memoOver(store))).rejects.toMatchObject({ code: "timeout" });
    const again = callBlock(calls, {}, memoOver(store));
    await expect(again).rejects.toMatchObject({
      code: "timeout",
      spent,
      partialOutput: { runId: "child-9", workflowId: "helper" },
    });
    await expect(again).rejects.toThrow('Workflow "Helper" failed: too slow (run child-9)');
    expect(requests).toHaveLength(0);
  });

  it("does not remember a child cancelled with the block (a resumed parent runs it again)", async () => {
    const { calls } = fakeCalls();
    const store = new Map<string, unknown>();
    await callBlock(calls, {}, memoOver(store), new Error("parked"));
    expect(store.size).toBe(0);
  });

  it("reports only a workflow that is not found as deleted; other errors fail the block as they are", async () => {
    const down = new TrellisError("internal_error", "the database is unreachable");
    await expect(callBlock(fakeCalls({ describeWorkflow: () => Promise.reject(down) }).calls, {})).rejects.toBe(down);
    const plain = new Error("connection reset");
    await expect(callBlock(fakeCalls({ describeWorkflow: () => Promise.reject(plain) }).calls, {})).rejects.toBe(plain);
    const missing = new TrellisError("not_found", 'Workflow "helper" was not found');
    await expect(
      callBlock(fakeCalls({ describeWorkflow: () => Promise.reject(missing) }).calls, {}),
    ).rejects.toMatchObject({
      code: "invalid_config",
      message: expect.stringContaining(
        'Workflow block "Child" calls workflow "helper", which is not in this workspace (deleted?)',
      ),
    });
  });
});
