import { describe, expect, it } from "vitest";
import { checkWorkflowCall, maxWorkflowDepthFrom } from "./workflow-calls";
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
    expect(() => checkWorkflowCall([link("a"), link("b")], link("a"), 1, 10)).toThrow('Workflow "A" is already running in this call chain: "A" → "B" → "A"');
  });

  it("reads TRELLIS_MAX_WORKFLOW_DEPTH strictly", () => {
    expect(maxWorkflowDepthFrom(undefined)).toBe(3);
    expect(maxWorkflowDepthFrom("5")).toBe(5);
    expect(() => maxWorkflowDepthFrom("0")).toThrow('TRELLIS_MAX_WORKFLOW_DEPTH must be a whole number of at least 1; got "0"');
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
