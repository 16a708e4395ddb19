import { describe, expect, it } from "vitest";
import type { StoredWorkflow } from "@/contract";
import { createEditorStore } from "./editor-store";
import { nodeById } from "./node-index";

function stored(): StoredWorkflow {
  const block = (id: string, name: string) => ({
    id,
    type: "agent",
    name,
    position: { x: 0, y: 0 },
    parentId: null,
    enabled: true,
    config: { userPrompt: "hi" },
  });
  return {
    id: "wf1",
    version: 1,
    name: "Index",
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
      block("a", "Alpha"),
      block("b", "Beta"),
    ],
    edges: [],
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
  };
}

describe("one node looked up by id", () => {
  it("finds the node the store holds now, after edits and deletions too", () => {
    const store = createEditorStore(stored());
    expect(nodeById(store.getState().nodes, "a")?.data.name).toBe("Alpha");
    expect(nodeById(store.getState().nodes, "missing")).toBeUndefined();
    store.getState().updateBlock("a", { name: "Renamed" });
    expect(nodeById(store.getState().nodes, "a")?.data.name).toBe("Renamed");
    store.getState().deleteBlocks(["b"]);
    expect(nodeById(store.getState().nodes, "b")).toBeUndefined();
    store.getState().undo();
    expect(nodeById(store.getState().nodes, "b")?.data.name).toBe("Beta");
  });
});
