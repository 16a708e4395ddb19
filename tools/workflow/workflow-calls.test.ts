import { describe, expect, it } from "vitest";
import { toolEntries } from "@/contract";
import { emptyUsage, TrellisError } from "@/core";
import type { ToolContext, ToolEntry } from "../types";
import { checkWorkflowCall, maxWorkflowDepthFrom, type WorkflowCalls, type WorkflowRunResult } from "./workflow-calls";
import { createWorkflowToolProvider } from "./workflow-tool";
import { parametersForWorkflow, toolNameForWorkflow } from "./workflow-tool-schema";

const link = (workflowId: string, workflowName = workflowId.toUpperCase()) => ({ workflowId, workflowName });

describe("workflow call checks", () => {
  it("allows a chain up to the depth limit and refuses one level more, naming the chain and the setting", () => {
    expect(() => checkWorkflowCall([link("a"), link("b")], link("c"), 1, 2)).not.toThrow();
    expect(() => checkWorkflowCall([link("a"), link("b"), link("c")], link("d"), 2, 2)).toThrow(
      'Calling workflow "D" would nest workflows 3 deep ("A" → "B" → "C" → "D"); the limit is 2 (TRELLIS_MAX_WORKFLOW_DEPTH)',
    );
  });

  it("refuses a cycle anywhere up the chain, whatever the depth left", () => {
    expect(() => checkWorkflowCall([link("a"), link("b")], link("a"), 1, 10)).toThrow(
      'Workflow "A" is already running in this call chain: "A" → "B" → "A"',
    );
  });

  it("reads TRELLIS_MAX_WORKFLOW_DEPTH strictly", () => {
    expect(maxWorkflowDepthFrom(undefined)).toBe(3);
    expect(maxWorkflowDepthFrom("5")).toBe(5);
    expect(() => maxWorkflowDepthFrom("0")).toThrow(
      'TRELLIS_MAX_WORKFLOW_DEPTH must be a whole number of at least 1; got "0"',
    );
    expect(() => maxWorkflowDepthFrom("lots")).toThrow(/got "lots"/);
  });
});

describe("workflow tool schema", () => {
  it("derives a tool name every provider accepts", () => {
    expect(toolNameForWorkflow({ id: "w1", name: "Résumé Builder (v2)" })).toBe("resume_builder_v2");
    expect(toolNameForWorkflow({ id: "0196-abcd", name: "日本語" })).toBe("workflow_0196abcd");
  });

  it("turns start inputs into parameters: typed, described, required unless defaulted", () => {
    const schema = parametersForWorkflow({
      id: "w",
      name: "w",
      inputs: [
        { name: "query", type: "string", description: "What to find" },
        { name: "tags", type: "array", default: [] },
      ],
    });
    expect(schema).toEqual({
      type: "object",
      properties: { query: { type: "string", description: "What to find" }, tags: { type: "array", items: {} } },
      required: ["query"],
      additionalProperties: false,
    });
  });
});

describe("a workflow tool whose child run fails", () => {
  const failed: WorkflowRunResult = {
    runId: "child-3",
    status: "failed",
    output: null,
    error: { code: "timeout", message: "too slow" },
    usage: emptyUsage(),
  };
  const deps: WorkflowCalls = {
    describeWorkflow: async (workflowId) => ({ id: workflowId, name: "Helper", inputs: [] }),
    callChain: (_runId, workflowId) => [{ workflowId, workflowName: "Caller" }],
    runWorkflow: async () => failed,
  };
  const [entry] = toolEntries([{ type: "workflow", params: { workflowId: "helper" } }]) as [ToolEntry];
  const context = {
    runId: "run-1",
    workflowId: "caller",
    blockId: "agent",
    signal: new AbortController().signal,
    depth: 0,
    variables: {},
  } as unknown as ToolContext;

  it("fails with the child's error and links its run, as a failed Workflow block does", async () => {
    const tools = await createWorkflowToolProvider(deps).createTools([entry], context);
    const execute = tools.helper!.execute as (input: unknown, options: { toolCallId: string }) => Promise<unknown>;
    const call = execute({}, { toolCallId: "call-1" });
    await expect(call).rejects.toMatchObject({
      code: "timeout",
      partialOutput: { runId: "child-3", workflowId: "helper" },
    });
    await expect(call).rejects.toThrow('Workflow "Helper" failed: too slow (run child-3)');
  });

  it("reports only a workflow that is not found as unusable; other errors pass as they are", async () => {
    const down = new Error("connection reset");
    const broken = createWorkflowToolProvider({ ...deps, describeWorkflow: () => Promise.reject(down) });
    await expect(broken.createTools([entry], context)).rejects.toBe(down);
    const gone = createWorkflowToolProvider({
      ...deps,
      describeWorkflow: () => Promise.reject(new TrellisError("not_found", "It was not found")),
    });
    await expect(gone.createTools([entry], context)).rejects.toMatchObject({
      code: "invalid_tool",
      message: 'The workflow tool cannot use workflow "helper": It was not found',
    });
  });
});
