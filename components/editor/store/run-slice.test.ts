import { describe, expect, it } from "vitest";
import { type RunEvent, type StoredWorkflow } from "@/contract";
import { createEditorStore } from "./editor-store";

function stored(): StoredWorkflow {
  return {
    id: "wf1",
    version: 1,
    name: "Greeter",
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

const tokens = { prompt: 10, completion: 5, total: 15 };
const cost = { input: 0.001, output: 0.002, total: 0.003 };

function shortRun(runId: string): RunEvent[] {
  return [
    { type: "run.started", runId, workflowId: "wf1", startedAt: "2026-11-01T00:00:00.000Z" },
    {
      type: "block.started",
      runId,
      blockId: "agent1",
      blockName: "Agent",
      blockType: "agent",
      spanId: "s1",
      startedAt: "2026-11-01T00:00:00.010Z",
    },
    { type: "block.delta", runId, blockId: "agent1", spanId: "s1", text: "Hello" },
    { type: "block.completed", runId, blockId: "agent1", spanId: "s1", output: "Hello", durationMs: 40, tokens, cost },
    { type: "run.completed", runId, output: "Hello", durationMs: 50, tokens, cost },
  ];
}

const sequenced = (events: RunEvent[]) => events.map((event, index) => ({ seq: index + 1, event }));

describe("the editor store's run slice", () => {
  it("follows a run and shows what the reducer made of its events: node state, run status, console", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("r1");
    expect(store.getState().run.target).toEqual({ runId: "r1", generation: 1 });
    expect(store.getState().run.panelOpen).toBe(true);
    expect(store.getState().run.view).toMatchObject({
      runId: "r1",
      status: "queued",
      blocks: { start: { status: "pending" }, agent1: { status: "pending" } },
    });

    store.getState().applyRunEvents(sequenced(shortRun("r1")));
    const { view } = store.getState().run;
    expect(view.blocks.agent1).toMatchObject({
      status: "succeeded",
      text: "Hello",
      durationMs: 40,
      tokens,
      cost,
      runs: 1,
    });
    // The start block never reported: a finished run clears the queued badge rather than leave it waiting.
    expect(view.blocks.start).toBeUndefined();
    expect(view).toMatchObject({ status: "succeeded", ended: true, durationMs: 50, tokens, cost });
    expect(view.log.map((entry) => entry.text)).toEqual([
      "Run started",
      "Agent started",
      "Hello",
      "Agent succeeded",
      "Run succeeded",
    ]);
  });

  it("names a block the run skipped by its name on the canvas: no event of the run names it", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("r1");
    const [started] = shortRun("r1");
    store
      .getState()
      .applyRunEvents(
        sequenced([started!, { type: "block.skipped", runId: "r1", blockId: "agent1", reason: "no route led to it" }]),
      );
    expect(store.getState().run.view.log.at(-1)?.text).toBe("Agent skipped: no route led to it");
  });

  it("replaces only the block an event changed, and ignores events it already applied", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("r1");
    const events = sequenced(shortRun("r1"));
    store.getState().applyRunEvents(events.slice(0, 2));
    const before = store.getState().run.view;
    store.getState().applyRunEvents(events.slice(2, 3));
    const after = store.getState().run.view;
    expect(after.blocks.agent1).not.toBe(before.blocks.agent1);
    expect(after.blocks.start).toBe(before.blocks.start);

    let notified = 0;
    const unsubscribe = store.subscribe(() => notified++);
    store.getState().applyRunEvents(events.slice(0, 3));
    unsubscribe();
    expect(notified).toBe(0);
    expect(store.getState().run.view).toBe(after);
  });

  it("clears the previous run's badges when it follows a new run", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("r1");
    store.getState().applyRunEvents(sequenced(shortRun("r1")));
    store.getState().selectSpan("s1");
    store.getState().setRunActionError("Could not cancel the run");

    store.getState().followRun("r2");
    const { run } = store.getState();
    expect(run.target).toEqual({ runId: "r2", generation: 2 });
    expect(run.view).toMatchObject({ runId: "r2", status: "queued", ended: false, lastSeq: 0, log: [], approvals: [] });
    expect(run.view.blocks).toEqual({
      start: { status: "pending", text: "" },
      agent1: { status: "pending", text: "" },
    });
    expect(run.view.tokens).toBeUndefined();
    expect(run.selectedSpanId).toBeNull();
    expect(run.actionError).toBeNull();
    // Events of the run it left no longer land.
    store.getState().applyRunEvents(sequenced(shortRun("r1")));
    expect(store.getState().run.view).toBe(run.view);
  });

  it("counts the times a run was resumed after its process stopped, not the times a person let it go on", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("r1");
    const [started, blockStarted] = shortRun("r1");
    const resumed = (reason: "recovered" | "approved", worker?: string): RunEvent => ({
      type: "run.resumed",
      runId: "r1",
      reason,
      ...(worker ? { worker } : {}),
      resumedAt: "2026-11-01T00:00:01.000Z",
    });
    store.getState().applyRunEvents(sequenced([started!, blockStarted!]));
    expect(store.getState().run.view.recoveries).toBeUndefined();

    store
      .getState()
      .applyRunEvents(
        sequenced([started!, blockStarted!, resumed("recovered", "host-b"), resumed("approved"), resumed("recovered")]),
      );
    const { view } = store.getState().run;
    expect(view).toMatchObject({ status: "running", recoveries: 2, resumed: "recovered" });
    expect(view.blocks.agent1?.status).toBe("pending");
    expect(view.log.map((entry) => entry.text).slice(2)).toEqual([
      "Run resumed after its process stopped on host-b",
      "Run resumed (approved)",
      "Run resumed after its process stopped",
    ]);
  });

  it("keeps the run across undo, and the panel's tab and selection in the same store", () => {
    const store = createEditorStore(stored());
    store.getState().followRun("r1");
    store.getState().applyRunEvents(sequenced(shortRun("r1")).slice(0, 3));
    store.getState().updateMeta({ name: "Renamed" });
    store.getState().undo();
    expect(store.getState().run.view.blocks.agent1?.text).toBe("Hello");

    store.getState().setRunPanelOpen(false);
    store.getState().showRunTab("trace");
    expect(store.getState().run).toMatchObject({ tab: "trace", panelOpen: true });
  });
});
