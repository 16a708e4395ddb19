import { describe, expect, it } from "vitest";
import { createEditorStore } from "./editor-store";
import { saveStatus } from "./save-slice";
import { type StoredWorkflow } from "@/contract";
import { createBlock } from "../graph/new-block";

function stored(): StoredWorkflow {
  return {
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
        id: "agent1",
        type: "agent",
        name: "Agent",
        position: { x: 300, y: 0 },
        parentId: null,
        enabled: true,
        config: { model: "offline/echo", userPrompt: "hi" },
      },
    ],
    edges: [],
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
  };
}

describe("editor store", () => {
  it("round-trips the document it was created from", () => {
    const store = createEditorStore(stored());
    const { id: _id, version: _version, createdAt: _createdAt, updatedAt: _updatedAt, ...document } = stored();
    expect(store.getState().toDocument()).toEqual(document);
    expect(saveStatus(store.getState().save)).toBe("saved");
  });

  it("undoes and redoes connects, adds, deletions and config edits, marking the document unsaved", () => {
    const store = createEditorStore(stored());
    const state = () => store.getState();
    expect(state().connect({ source: "start", target: "agent1", sourceHandle: "out", targetHandle: null })).toBeNull();
    expect(state().connect({ source: "agent1", target: "start", sourceHandle: "out", targetHandle: null })).toMatch(
      /accepts no incoming edges/,
    );
    state().addBlocks([
      createBlock("response", { x: 600, y: 0 }, { ids: new Set(["start", "agent1"]), names: ["Start", "Agent"] }),
    ]);
    state().selectOnly(["agent1"]);
    state().deleteSelection();
    expect(state().nodes.map((node) => node.id)).toEqual(["start", "response1"]);
    expect(state().edges).toHaveLength(0);
    expect(saveStatus(state().save)).toBe("unsaved");
    state().undo();
    expect(state().nodes.map((node) => node.id)).toEqual(["start", "agent1", "response1"]);
    expect(state().edges).toHaveLength(1);
    state().undo();
    state().undo();
    expect(state().edges).toHaveLength(0);
    state().redo();
    expect(state().edges).toHaveLength(1);
  });

  it("groups keystrokes in one field into one undo step", () => {
    const store = createEditorStore(stored());
    for (const text of ["h", "he", "hel"])
      store.getState().updateBlock("agent1", { config: { userPrompt: text } }, "config.userPrompt");
    store.getState().undo();
    expect(store.getState().nodes[1]!.data.config.userPrompt).toBe("hi");
  });

  it("points references at a renamed block's new name, as part of the rename's undo step", () => {
    const workflow = stored();
    workflow.blocks.push({
      id: "resp",
      type: "response",
      name: "Reply",
      position: { x: 600, y: 0 },
      parentId: null,
      enabled: true,
      config: { body: "<Agent.content> via <start.message>" },
    });
    const store = createEditorStore(workflow);
    for (const name of ["Agen", "Age", "Writer"]) store.getState().updateBlock("agent1", { name }, "name");
    store.getState().renameReferences("agent1", "Agent");
    expect(store.getState().nodes[2]!.data.config.body).toBe("<Writer.content> via <start.message>");
    store.getState().undo();
    expect(store.getState().nodes[1]!.data.name).toBe("Agent");
    expect(store.getState().nodes[2]!.data.config.body).toBe("<Agent.content> via <start.message>");
    // Nothing refers to Reply: renaming it changes no config and adds no history entry.
    store.getState().updateBlock("resp", { name: "Answer" }, "name");
    const revision = store.getState().save.revision;
    store.getState().renameReferences("resp", "Reply");
    expect(store.getState().save.revision).toBe(revision);
  });

  it("leaves references alone while the new name clashes with another block's", () => {
    const workflow = stored();
    workflow.blocks.push({
      id: "resp",
      type: "response",
      name: "Reply",
      position: { x: 600, y: 0 },
      parentId: null,
      enabled: true,
      config: { body: "<Agent.content>" },
    });
    const store = createEditorStore(workflow);
    store.getState().updateBlock("agent1", { name: "reply" }, "name");
    store.getState().renameReferences("agent1", "Agent");
    expect(store.getState().nodes[2]!.data.config.body).toBe("<Agent.content>");
  });

  it("records a drag as one undo step, and nothing for a click without movement", () => {
    const store = createEditorStore(stored());
    store.getState().beginGesture();
    store.getState().endGesture();
    expect(store.getState().history.past).toHaveLength(0);
    store.getState().beginGesture();
    for (const x of [310, 320, 330])
      store.getState().onNodesChange([{ type: "position", id: "agent1", position: { x, y: 0 }, dragging: true }]);
    store.getState().endGesture();
    expect(store.getState().history.past).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().nodes[1]!.position).toEqual({ x: 300, y: 0 });
  });

  it("moves a block into a container keeping its place on screen", () => {
    const store = createEditorStore(stored());
    store
      .getState()
      .addBlocks([{ ...createBlock("loop", { x: 250, y: -50 }, { ids: new Set(), names: [] }), id: "loop1" }]);
    store.getState().reparent("agent1", "loop1");
    const agent = store.getState().nodes.find((node) => node.id === "agent1")!;
    expect(agent.parentId).toBe("loop1");
    expect(agent.position).toEqual({ x: 50, y: 50 });
    expect(store.getState().nodes.findIndex((node) => node.id === "loop1")).toBeLessThan(
      store.getState().nodes.findIndex((node) => node.id === "agent1"),
    );
  });

  it("tracks saving by revision and keeps later edits unsaved", () => {
    const store = createEditorStore(stored());
    store.getState().updateMeta({ name: "Renamed" });
    const revision = store.getState().save.revision;
    store.getState().saveStarted(revision);
    expect(saveStatus(store.getState().save)).toBe("saving");
    store.getState().updateMeta({ description: "more" });
    store.getState().saveSucceeded({ ...stored(), version: 4 }, revision);
    expect(store.getState().save.version).toBe(4);
    expect(saveStatus(store.getState().save)).toBe("unsaved");
    store.getState().saveConflicted(null);
    expect(saveStatus(store.getState().save)).toBe("conflict");
  });

  it("keeps run state per block for the run badges", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("run1");
    store.getState().applyRunEvents([
      {
        seq: 1,
        event: {
          type: "block.started",
          runId: "run1",
          blockId: "agent1",
          blockName: "Agent",
          blockType: "agent",
          spanId: "s1",
          startedAt: "2026-11-01T00:00:00.000Z",
        },
      },
      { seq: 2, event: { type: "block.delta", runId: "run1", blockId: "agent1", spanId: "s1", text: "Hel" } },
      { seq: 3, event: { type: "block.delta", runId: "run1", blockId: "agent1", spanId: "s1", text: "lo" } },
    ]);
    expect(store.getState().run.view.blocks.agent1).toMatchObject({ status: "running", text: "Hello" });
  });
});
