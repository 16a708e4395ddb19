import { describe, expect, it } from "vitest";
import type { CopilotAnswer, StoredWorkflow, WorkflowDocument } from "@/contract";
import { COPILOT_ADDED_CLASS, COPILOT_CHANGED_CLASS, COPILOT_REMOVED_CLASS } from "./copilot-slice";
import { createEditorStore } from "./editor-store";

const stored: StoredWorkflow = {
  id: "wf1",
  version: 3,
  name: "Support",
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
      id: "old",
      type: "agent",
      name: "Old Agent",
      position: { x: 300, y: 0 },
      parentId: null,
      enabled: true,
      config: { model: "offline/echo", userPrompt: "hi" },
    },
  ],
  edges: [{ id: "e1", source: "start", target: "old", sourceHandle: "out" }],
  createdAt: "2026-11-01T00:00:00.000Z",
  updatedAt: "2026-11-01T00:00:00.000Z",
};

/** The copilot replaced the old agent by a new one and renamed the start block. */
const proposed: WorkflowDocument = {
  name: "Support",
  description: "",
  variables: {},
  blocks: [
    { ...stored.blocks[0]!, name: "Begin" },
    {
      id: "new",
      type: "agent",
      name: "New Agent",
      position: { x: 300, y: 100 },
      parentId: null,
      enabled: true,
      config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
    },
  ],
  edges: [{ id: "e2", source: "start", target: "new", sourceHandle: "out" }],
};

function answer(baseVersion = 3): CopilotAnswer {
  return {
    answer: "Done.",
    model: "openai/gpt-4o-mini",
    baseVersion,
    proposal: {
      document: proposed,
      changes: [{ tool: "add_block", summary: "Added agent block" }],
      diff: {
        blocksAdded: [{ id: "new", name: "New Agent", type: "agent" }],
        blocksRemoved: [{ id: "old", name: "Old Agent", type: "agent" }],
        blocksChanged: [{ id: "start", name: "Begin", type: "start", fields: ["name"] }],
        edgesAdded: 1,
        edgesRemoved: 1,
        otherChanges: [],
      },
    },
    refused: [],
    stepCapReached: false,
    estimate: null,
    usage: { tokens: { prompt: 10, completion: 2, total: 12 }, cost: { input: 0, output: 0, total: 0 }, calls: 1 },
  };
}

describe("a copilot proposal in the editor", () => {
  it("is shown on the canvas with added, changed and removed marked, the draft untouched", () => {
    const store = createEditorStore(stored);
    const before = JSON.stringify(store.getState().toDocument());
    store.getState().showCopilotProposal(answer(), store.getState().save.revision);
    const { preview } = store.getState().copilotProposal!;
    const classOf = (id: string) => preview.nodes.find((node) => node.id === id)?.className;
    expect(classOf("new")).toBe(COPILOT_ADDED_CLASS);
    expect(classOf("start")).toBe(COPILOT_CHANGED_CLASS);
    expect(classOf("old")).toBe(COPILOT_REMOVED_CLASS);
    expect(preview.edges.find((edge) => edge.id === "e2")?.className).toBe(COPILOT_ADDED_CLASS);
    expect(preview.edges.find((edge) => edge.id === "removed:e1")?.className).toBe(COPILOT_REMOVED_CLASS);
    expect(JSON.stringify(store.getState().toDocument())).toBe(before);
  });

  it("Reject leaves the draft byte-identical, with nothing to save", () => {
    const store = createEditorStore(stored);
    const before = JSON.stringify(store.getState().toDocument());
    const revision = store.getState().save.revision;
    store.getState().showCopilotProposal(answer(), revision);
    store.getState().rejectCopilotProposal();
    expect(store.getState().copilotProposal).toBeNull();
    expect(JSON.stringify(store.getState().toDocument())).toBe(before);
    expect(store.getState().save.revision).toBe(revision);
    expect(store.getState().history.past).toHaveLength(0);
  });

  it("Accept applies the proposal as one undoable step", () => {
    const store = createEditorStore(stored);
    const before = JSON.stringify(store.getState().toDocument());
    store.getState().showCopilotProposal(answer(), store.getState().save.revision);
    expect(store.getState().acceptCopilotProposal()).toBeNull();
    expect(store.getState().copilotProposal).toBeNull();
    const document = store.getState().toDocument();
    expect(document.blocks.map((block) => block.name)).toEqual(["Begin", "New Agent"]);
    expect(document.edges).toEqual([{ id: "e2", source: "start", target: "new", sourceHandle: "out" }]);
    expect(store.getState().history.past).toHaveLength(1);
    store.getState().undo();
    expect(JSON.stringify(store.getState().toDocument())).toBe(before);
  });

  it("refuses to apply a proposal over an edit made since it was asked for, or over another version", () => {
    const store = createEditorStore(stored);
    store.getState().showCopilotProposal(answer(), store.getState().save.revision);
    store.getState().updateMeta({ description: "Edited meanwhile" });
    expect(store.getState().acceptCopilotProposal()).toMatch(/changed since the copilot read it/);
    expect(
      store
        .getState()
        .toDocument()
        .blocks.map((block) => block.id),
    ).toEqual(["start", "old"]);

    const other = createEditorStore(stored);
    other.getState().showCopilotProposal(answer(2), other.getState().save.revision);
    expect(other.getState().acceptCopilotProposal()).toMatch(/changed since the copilot read it/);
  });
});
