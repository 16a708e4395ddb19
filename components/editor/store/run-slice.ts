import type { SequencedRunEvent } from "@/contract";
import { reduceRunEvents } from "./run-reducer";
import { IDLE_RUN, initialRunView, type RunView } from "./run-view";

/**
 * The run side of the editor store: the followed run as the reducer builds it, and the run
 * panel around it. The run stream hook is the only caller of applyRunEvents, so every view the
 * nodes, the toolbar, the console and the trace read went through the one reducer.
 */

export type RunPanelTab = "console" | "trace" | "history";

export interface RunSliceState {
  view: RunView;
  /** The run the event stream follows; a new generation opens a fresh stream that replays from the start. */
  target: { runId: string; generation: number } | null;
  panelOpen: boolean;
  tab: RunPanelTab;
  /** The span the trace details; null details the run itself. */
  selectedSpanId: string | null;
  /** Why the last Run, Cancel or approval click did not work, for the toolbar to say. */
  actionError: string | null;
}

export interface RunSliceActions {
  /** Follows a run from its first event (live if it goes on, as it was left if it ended): clears the previous run's badges. */
  followRun(runId: string): void;
  /** Feeds events to the reducer. Only the run stream hook calls it. */
  applyRunEvents(events: readonly SequencedRunEvent[]): void;
  showRunTab(tab: RunPanelTab): void;
  setRunPanelOpen(open: boolean): void;
  selectSpan(spanId: string | null): void;
  setRunActionError(message: string | null): void;
}

export const INITIAL_RUN_SLICE: RunSliceState = {
  view: IDLE_RUN,
  target: null,
  panelOpen: false,
  tab: "console",
  selectedSpanId: null,
  actionError: null,
};

/** A past run opened by its URL: followed from its first event, its trace shown. */
export function pastRunSlice(runId: string, nodes: ReadonlyArray<{ id: string; name: string }>): RunSliceState {
  return {
    ...INITIAL_RUN_SLICE,
    view: initialRunView(
      runId,
      nodes.map((node) => node.id),
      Object.fromEntries(nodes.map((node) => [node.id, node.name])),
    ),
    target: { runId, generation: 1 },
    panelOpen: true,
    tab: "trace",
  };
}

type SetRunSlice = (update: (run: RunSliceState) => Partial<RunSliceState> | null) => void;

/** One block of the workflow as shown now: its id and the name people read. */
export interface RunBlockName {
  id: string;
  name: string;
}

function followedView(runId: string, blocks: readonly RunBlockName[]): RunView {
  const names = Object.fromEntries(blocks.map((block) => [block.id, block.name]));
  return initialRunView(
    runId,
    blocks.map((block) => block.id),
    names,
    Date.now(),
  );
}

/** `blocks` lists the workflow's blocks now: a followed run starts with each of them queued, known by its name. */
export function createRunActions(setRun: SetRunSlice, blocks: () => RunBlockName[]): RunSliceActions {
  return {
    followRun: (runId) =>
      setRun((run) => ({
        view: followedView(runId, blocks()),
        target: { runId, generation: (run.target?.generation ?? 0) + 1 },
        selectedSpanId: null,
        actionError: null,
        panelOpen: true,
      })),
    applyRunEvents: (events) =>
      setRun((run) => {
        const view = reduceRunEvents(run.view, events);
        // Repeated events (a resumed stream) change nothing: no notification, no re-render.
        return view === run.view ? null : { view };
      }),
    showRunTab: (tab) => setRun(() => ({ tab, panelOpen: true })),
    setRunPanelOpen: (panelOpen) => setRun(() => ({ panelOpen })),
    selectSpan: (selectedSpanId) => setRun(() => ({ selectedSpanId })),
    setRunActionError: (actionError) => setRun(() => ({ actionError })),
  };
}
