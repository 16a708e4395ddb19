"use client";

import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import { useEditorStoreApi, type EditorStore } from "@/components/editor/store";
import { IDLE_RUN, initialRunView, reduceRunEvents, type RunView } from "./run-reducer";
import { type SequencedRunEvent } from "@/contract";

export type RunPanelTab = "console" | "trace" | "history";

export interface RunStoreState {
  view: RunView;
  /** The run the event stream follows; a new generation opens a fresh stream that replays from the start. */
  target: { runId: string; generation: number } | null;
  panelOpen: boolean;
  tab: RunPanelTab;
  selectedSpanId: string | null;
  /** Why the last Run or Cancel click did not work, for the toolbar to say. */
  actionError: string | null;

  /** Follows a run from its first event: live if it goes on, as it was left if it ended. */
  follow(runId: string): void;
  apply(events: readonly SequencedRunEvent[]): void;
  showTab(tab: RunPanelTab): void;
  setPanelOpen(open: boolean): void;
  selectSpan(spanId: string | null): void;
  setActionError(message: string | null): void;
}

export type RunStore = StoreApi<RunStoreState>;

/**
 * The run side of one open workflow. The reducer's state lives here and is mirrored into the
 * editor store's run slice, which the nodes read; both hold the same object, so they agree.
 */
function createRunStore(editor: EditorStore): RunStore {
  return createStore<RunStoreState>()((set, get) => {
    const publish = (view: RunView) => {
      set({ view });
      editor.setState({ run: view });
    };
    return {
      view: IDLE_RUN,
      target: null,
      panelOpen: false,
      tab: "console",
      selectedSpanId: null,
      actionError: null,
      follow: (runId) => {
        const blockIds = editor.getState().nodes.map((node) => node.id);
        set((state) => ({ target: { runId, generation: (state.target?.generation ?? 0) + 1 }, selectedSpanId: null, actionError: null, panelOpen: true }));
        publish(initialRunView(runId, blockIds));
      },
      apply: (events) => {
        const next = reduceRunEvents(get().view, events);
        if (next !== get().view) publish(next);
      },
      showTab: (tab) => set({ tab, panelOpen: true }),
      setPanelOpen: (panelOpen) => set({ panelOpen }),
      selectSpan: (selectedSpanId) => set({ selectedSpanId }),
      setActionError: (actionError) => set({ actionError }),
    };
  });
}

const stores = new WeakMap<EditorStore, RunStore>();

/** One run store per editor store, made on first use: no provider to mount. */
export function runStoreFor(editor: EditorStore): RunStore {
  let store = stores.get(editor);
  if (!store) {
    store = createRunStore(editor);
    stores.set(editor, store);
  }
  return store;
}

export function useRunStoreApi(): RunStore {
  return runStoreFor(useEditorStoreApi());
}

export function useRunStore<T>(selector: (state: RunStoreState) => T): T {
  return useStore(useRunStoreApi(), selector);
}

export function isLive(view: RunView): boolean {
  return !view.ended && (view.status === "queued" || view.status === "running" || view.status === "paused");
}
