import { describe, expect, it } from "vitest";
import type { WorkflowBlock, WorkflowEdge } from "@/contract";
import { blockToNode, flowEdgeToWorkflow, nodeToBlock, workflowEdgeToFlow } from "./document-flow";
import { setEdgeCondition, setEdgeMaxRetries } from "./graph-operations";

describe("a block through the canvas and back", () => {
  it("keeps the settings the canvas has no editor for (retry, timeout) and its test sample", () => {
    const block: WorkflowBlock = {
      id: "call",
      type: "api",
      name: "Call",
      position: { x: 10, y: 20 },
      parentId: null,
      enabled: true,
      config: { url: "https://example.com", method: "GET" },
      retry: { attempts: 3, backoffMs: 500 },
      timeoutMs: 5_000,
      testing: { http: { status: 200, body: { ok: true } } },
    };

    expect(nodeToBlock(blockToNode(block))).toEqual(block);
  });

  it("adds nothing to a block that has none of them", () => {
    const block: WorkflowBlock = {
      id: "s",
      type: "start",
      name: "Start",
      position: { x: 0, y: 0 },
      parentId: null,
      enabled: true,
      config: {},
    };

    expect(nodeToBlock(blockToNode(block))).toEqual(block);
  });
});

describe("an edge through the canvas and back", () => {
  it("keeps a retry edge's cap and condition, and a condition edit keeps the cap", () => {
    const edge: WorkflowEdge = {
      id: "back",
      source: "fix",
      target: "linter",
      sourceHandle: "out",
      condition: "output.content != null",
      maxRetries: 3,
    };
    const drawn = workflowEdgeToFlow(edge);
    expect(flowEdgeToWorkflow(drawn)).toEqual(edge);
    const [edited] = setEdgeCondition([drawn], "back", "");
    expect(flowEdgeToWorkflow(edited!)).toEqual({
      id: "back",
      source: "fix",
      target: "linter",
      sourceHandle: "out",
      maxRetries: 3,
    });
    const [plain] = setEdgeMaxRetries([edited!], "back", null);
    expect(flowEdgeToWorkflow(plain!)).toEqual({ id: "back", source: "fix", target: "linter", sourceHandle: "out" });
  });
});
