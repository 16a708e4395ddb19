import { describe, expect, it } from "vitest";
import { childRunOf } from "./child-run";

describe("childRunOf", () => {
  it("finds the child run of a Workflow block's span, succeeded or failed, and of a workflow tool call", () => {
    const link = { runId: "run-2", workflowId: "wf-2" };
    expect(
      childRunOf({ kind: "block", blockType: "workflow", output: { output: { answer: "hi" }, ...link, tokens: {} } }),
    ).toEqual(link);
    expect(childRunOf({ kind: "block", blockType: "workflow", output: link })).toEqual(link);
    expect(childRunOf({ kind: "tool", blockType: "agent", output: { ...link, output: "hi" } })).toEqual(link);
  });

  it("finds none where a block's output merely has fields of those names, or nothing says which workflow", () => {
    expect(childRunOf({ kind: "block", blockType: "function", output: { runId: "r", workflowId: "w" } })).toBeNull();
    expect(childRunOf({ kind: "tool", blockType: "agent", output: { runId: "r" } })).toBeNull();
    expect(childRunOf({ kind: "block", blockType: "workflow", output: null })).toBeNull();
  });
});
