import { describe, expect, it } from "vitest";
import { getBlockDefinition } from "@/blocks";
import { type StoredWorkflow } from "@/contract";
import { validateWorkflow } from "@/executor";
import { lookupBlockType } from "@/blocks";
import { edgeVariantForHandle } from "../graph/document-flow";
import { saveStatus } from "./save-slice";
import { createEditorStore } from "./editor-store";

const tools = [{ type: "calculator", routeOnOutcome: true }];

function stored(): StoredWorkflow {
  return {
    id: "wf1",
    version: 1,
    name: "Routes",
    description: "",
    variables: {},
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        parentId: null,
        enabled: true,
        config: { inputs: [] },
      },
      {
        id: "calc",
        type: "agent",
        name: "Calc",
        position: { x: 300, y: 0 },
        parentId: null,
        enabled: true,
        config: { model: "offline/echo", userPrompt: "hi", tools },
      },
      {
        id: "done",
        type: "response",
        name: "Done",
        position: { x: 600, y: 0 },
        parentId: null,
        enabled: true,
        config: { data: "ok" },
      },
      {
        id: "sorry",
        type: "response",
        name: "Sorry",
        position: { x: 600, y: 200 },
        parentId: null,
        enabled: true,
        config: { data: "no" },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "calc", sourceHandle: "out" },
      {
        id: "e2",
        source: "calc",
        target: "done",
        sourceHandle: "tool:calculator:success",
        condition: "output.content != ''",
      },
      { id: "e3", source: "calc", target: "sorry", sourceHandle: "tool:calculator:error" },
    ],
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
  };
}

describe("edge conditions and tool-outcome edges in the editor", () => {
  it("keeps an edge's condition and its tool-outcome handle through the canvas and back", () => {
    const store = createEditorStore(stored());
    const edges = store.getState().edges;
    expect(edges[1]!.data).toEqual({ variant: "branch", condition: "output.content != ''" });
    expect(edges[2]!.data).toEqual({ variant: "error" });
    const { id: _id, version: _version, createdAt: _createdAt, updatedAt: _updatedAt, ...document } = stored();
    expect(store.getState().toDocument()).toEqual(document);
    expect(validateWorkflow(store.getState().toDocument(), lookupBlockType)).toEqual([]);
  });

  it("offers the agent's tool-outcome handles on its node, drawn like branches and errors", () => {
    const agent = stored().blocks[1]!;
    const handles = getBlockDefinition("agent")!.sourceHandles(agent);
    expect(handles.map((handle) => [handle.id, handle.variant])).toEqual([
      ["out", "default"],
      ["error", "error"],
      ["tool:calculator:success", "branch"],
      ["tool:calculator:error", "error"],
    ]);
    expect(edgeVariantForHandle("tool:calculator:error")).toBe("error");
    expect(edgeVariantForHandle("tool:calculator:success")).toBe("branch");
  });

  it("sets, clears and undoes an edge's condition, as one step per edit, marking the document unsaved", () => {
    const store = createEditorStore(stored());
    store.getState().setEdgeCondition("e3", "output.toolCalls.count");
    store.getState().setEdgeCondition("e3", "output.toolCalls.count > 1");
    expect(saveStatus(store.getState().save)).toBe("unsaved");
    expect(store.getState().toDocument().edges[2]).toEqual({
      id: "e3",
      source: "calc",
      target: "sorry",
      sourceHandle: "tool:calculator:error",
      condition: "output.toolCalls.count > 1",
    });
    store.getState().setEdgeCondition("e2", "");
    expect(store.getState().toDocument().edges[1]).not.toHaveProperty("condition");
    store.getState().undo();
    expect(store.getState().toDocument().edges[1]!.condition).toBe("output.content != ''");
    store.getState().undo();
    expect(store.getState().toDocument().edges[2]).not.toHaveProperty("condition");
  });

  it("refuses at save a condition that does not parse, naming the edge", () => {
    const store = createEditorStore(stored());
    store.getState().setEdgeCondition("e3", "output.toolCalls.count >");
    const issues = validateWorkflow(store.getState().toDocument(), lookupBlockType);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe("edges[2].condition");
    expect(issues[0]!.message).toMatch(/^The condition of the edge 'Calc' -> 'Sorry' does not parse: /);
  });

  it("selects one edge alone when its label is clicked", () => {
    const store = createEditorStore(stored());
    store.getState().selectOnly(["calc"]);
    store.getState().selectEdge("e2");
    expect(store.getState().nodes.filter((node) => node.selected)).toEqual([]);
    expect(
      store
        .getState()
        .edges.filter((edge) => edge.selected)
        .map((edge) => edge.id),
    ).toEqual(["e2"]);
  });
});
