import { describe, expect, it } from "vitest";
import type { RunDocument, StoredWorkflow, WorkflowBlock } from "@/contract";
import { createEditorStore } from "../store";
import { graphOfRun } from "./graph-of-run";

const block = (id: string, name: string, x: number): WorkflowBlock => ({
  id,
  type: id === "start" ? "start" : "function",
  name,
  position: { x, y: 0 },
  parentId: null,
  enabled: true,
  config: id === "start" ? { inputs: [] } : { code: "return 1;" },
});

/** Today's draft: "Greet" renamed "Welcome", and "Added Later" added after the run. */
const current: StoredWorkflow = {
  id: "wf1",
  version: 2,
  name: "Greeter",
  description: "",
  variables: {},
  blocks: [block("start", "Start", 0), block("greet", "Welcome", 300), block("later", "Added Later", 600)],
  edges: [{ id: "e1", source: "start", target: "greet", sourceHandle: "out" }],
  createdAt: "2026-11-01T00:00:00.000Z",
  updatedAt: "2026-11-02T00:00:00.000Z",
};

const ran: RunDocument = {
  runId: "run1",
  workflowId: "wf1",
  workflowVersion: 1,
  document: {
    name: "Greeter",
    description: "",
    variables: {},
    blocks: [block("start", "Start", 0), block("greet", "Greet", 300)],
    edges: current.edges,
  },
};

const names = (store: ReturnType<typeof createEditorStore>) => store.getState().nodes.map((node) => node.data.name);

describe("a past run's editor", () => {
  it("shows the graph the run ran, not today's draft, and follows that run with its trace open", () => {
    const store = createEditorStore(graphOfRun(ran, current), {
      pastRun: { runId: "run1", workflowVersion: 1, documentKept: true, mayAct: false },
    });
    expect(names(store)).toEqual(["Start", "Greet"]);
    const { run, readOnly, pastRun } = store.getState();
    expect(readOnly).toBe(true);
    expect(pastRun).toEqual({ runId: "run1", workflowVersion: 1, documentKept: true, mayAct: false });
    expect(run.target).toEqual({ runId: "run1", generation: 1 });
    expect(run.view.runId).toBe("run1");
    // Only the run's blocks wait for its events: none of a block added since.
    expect(Object.keys(run.view.blocks)).toEqual(["start", "greet"]);
    expect(run).toMatchObject({ panelOpen: true, tab: "trace" });
  });

  it("changes nothing: edits are refused and nothing becomes unsaved", () => {
    const store = createEditorStore(graphOfRun(ran, current), {
      pastRun: { runId: "run1", workflowVersion: 1, documentKept: true, mayAct: false },
    });
    store.getState().updateBlock("greet", { name: "Renamed" });
    store.getState().deleteBlocks(["greet"]);
    expect(names(store)).toEqual(["Start", "Greet"]);
    expect(store.getState().save.revision).toBe(0);
  });

  it("lets an editor answer the run's approvals and asks, though the graph is read-only; a viewer cannot", () => {
    const asEditor = createEditorStore(graphOfRun(ran, current), {
      pastRun: { runId: "run1", workflowVersion: 1, documentKept: true, mayAct: true },
    });
    expect(asEditor.getState()).toMatchObject({ readOnly: true, mayAnswer: true });
    const asViewer = createEditorStore(graphOfRun(ran, current), {
      pastRun: { runId: "run1", workflowVersion: 1, documentKept: true, mayAct: false },
    });
    expect(asViewer.getState()).toMatchObject({ readOnly: true, mayAnswer: false });
    expect(createEditorStore(current, { readOnly: true }).getState().mayAnswer).toBe(false);
    expect(createEditorStore(current).getState().mayAnswer).toBe(true);
  });

  it("a run that kept no document is shown on the current workflow", () => {
    const graph = graphOfRun({ ...ran, workflowVersion: null, document: null }, current);
    expect(graph).toBe(current);
    const store = createEditorStore(graph, {
      pastRun: { runId: "run1", workflowVersion: null, documentKept: false, mayAct: false },
    });
    expect(names(store)).toEqual(["Start", "Welcome", "Added Later"]);
  });

  it("keeps the current workflow's id and version beside the run's document", () => {
    expect(graphOfRun(ran, current)).toMatchObject({
      id: "wf1",
      version: 2,
      updatedAt: current.updatedAt,
      blocks: ran.document!.blocks,
    });
  });
});
