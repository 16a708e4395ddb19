"use client";

import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { isLive, useEditorStore, useEditorStoreApi, type EditorStore } from "@/components/editor/store";
import {
  type RunEvent,
  isTerminalEvent,
  RUN_EVENT_TYPES,
  type SequencedRunEvent,
  ENDED_RUN_STATUSES,
  LIVE_RUN_STATUSES,
  api,
} from "@/contract";

/** How often an idle editor asks whether a run of its workflow started elsewhere (another tab, the API). */
const DISCOVERY_INTERVAL_MS = 1_500;

/**
 * Opens the event stream of the run the store follows and feeds every event to the reducer
 * (applyRunEvents: this file is its only caller, so no other code writes the run view).
 * EventSource resumes after the last id on its own when the connection drops; events are applied
 * once per frame so a fast stream or a long replay does not render per event.
 */
function openStream(store: EditorStore, runId: string, onEnd: () => void): () => void {
  const source = new EventSource(api.runs.eventsUrl(runId));
  let queue: SequencedRunEvent[] = [];
  let frame: number | null = null;
  let ended = false;
  const flush = () => {
    frame = null;
    const batch = queue;
    queue = [];
    if (batch.length) store.getState().applyRunEvents(batch);
  };
  const finish = () => {
    if (ended) return;
    ended = true;
    source.close();
    flush();
    onEnd();
  };
  const receive = (message: MessageEvent<string>) => {
    const event = JSON.parse(message.data) as RunEvent;
    queue.push({ seq: Number(message.lastEventId), event });
    if (isTerminalEvent(event)) return finish();
    frame ??= requestAnimationFrame(flush);
  };
  for (const type of RUN_EVENT_TYPES) source.addEventListener(type, receive as EventListener);
  // The server closes a stream it has nothing more for; a run that ended without a final event
  // (its server restarted) would make EventSource reconnect forever: settle it from storage.
  source.onerror = () => {
    if (ended) return;
    void api.runs.get(runId).then(
      (run) => {
        if (ended || !(ENDED_RUN_STATUSES as string[]).includes(run.status)) return;
        const seq = store.getState().run.view.lastSeq + 1;
        const event: RunEvent =
          run.status === "cancelled"
            ? { type: "run.cancelled", runId }
            : {
                type: "run.failed",
                runId,
                error: run.error ?? { code: "run_ended", message: `The run ended ${run.status}.` },
              };
        if (run.status !== "succeeded") queue.push({ seq, event });
        finish();
      },
      () => source.readyState === EventSource.CLOSED && finish(),
    );
  };
  return () => {
    ended = true;
    source.close();
    if (frame !== null) cancelAnimationFrame(frame);
  };
}

/**
 * The one consumer of run event streams for an open workflow: follows the run the store points
 * at, and while nothing runs, looks for a run of this workflow started elsewhere (after a reload,
 * from another tab or through the API) and attaches to it, replaying it from the start. A past
 * run's editor shows that run alone: it looks for no other.
 */
export function useRunStream() {
  const store = useEditorStoreApi();
  const workflowId = useEditorStore((state) => state.workflowId);
  const queryClient = useQueryClient();
  const target = useEditorStore((state) => state.run.target);
  const pastRun = useEditorStore((state) => state.pastRun !== null);

  useEffect(() => {
    if (!target) return;
    return openStream(store, target.runId, () => {
      void queryClient.invalidateQueries({ queryKey: ["run", target.runId] });
      void queryClient.invalidateQueries({ queryKey: ["runs", workflowId] });
    });
  }, [store, target, workflowId, queryClient]);

  useEffect(() => {
    if (pastRun) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // One look at a time, the next one after the last answer: a slow server never piles up requests.
    const look = async () => {
      if (!isLive(store.getState().run.view)) {
        const runs = await api.runs.list(workflowId, LIVE_RUN_STATUSES).catch(() => []);
        const newest = runs[0];
        const current = store.getState().run.view;
        if (!stopped && newest && !isLive(current) && newest.id !== current.runId)
          store.getState().followRun(newest.id);
      }
      if (!stopped) timer = setTimeout(() => void look(), DISCOVERY_INTERVAL_MS);
    };
    void look();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [store, workflowId, pastRun]);
}
