"use client";

import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError, api, type StoredWorkflow } from "@/contract";
import { useEditorStoreApi } from "../store";

export const AUTOSAVE_DELAY_MS = 800;
const RETRY_DELAY_MS = 5_000;

/** The workflow that won, as the server puts it in a 409 answer (`error.current`). */
function conflictWinner(error: ApiError): StoredWorkflow | null {
  const body = error.body as { error?: { current?: StoredWorkflow } } | undefined;
  return body?.error?.current ?? null;
}

/**
 * Saves the document a moment after the last change, with the version it was based on. One save
 * is in flight at a time; changes made meanwhile are saved right after. A stale version stops
 * autosave and raises the conflict for the user to settle; nothing is overwritten silently.
 */
export function useAutosave() {
  const store = useEditorStoreApi();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    // A viewer's editor has nothing to save (and the API would refuse it).
    if (store.getState().readOnly) return;
    let disposed = false;
    const schedule = (delay = AUTOSAVE_DELAY_MS) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delay);
    };
    const flush = async () => {
      const state = store.getState();
      const { save } = state;
      if (disposed || save.conflict || save.inFlightRevision !== null || save.revision === save.savedRevision) return;
      // Mid-drag positions change every frame: wait for the drop.
      if (state.gestureStart) return schedule();
      const revision = save.revision;
      state.saveStarted(revision);
      try {
        const stored = await api.workflows.update(state.workflowId, { ...state.toDocument(), version: save.version });
        store.getState().saveSucceeded(stored, revision);
        queryClient.setQueryData(["workflow", state.workflowId], stored);
        if (store.getState().save.revision !== revision) schedule();
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          let current = conflictWinner(error);
          if (!current) current = await api.workflows.get(state.workflowId).catch(() => null);
          store.getState().saveConflicted(current);
          return;
        }
        const message = error instanceof ApiError ? error.message : "The server could not be reached.";
        store.getState().saveFailed(message);
        // Network trouble heals by itself; a refused document waits for the next edit.
        if (!(error instanceof ApiError) || error.status >= 500) schedule(RETRY_DELAY_MS);
      }
    };
    const unsubscribe = store.subscribe((state, previous) => {
      const edited = state.save.revision !== previous.save.revision;
      const conflictSettled = previous.save.conflict !== null && state.save.conflict === null;
      if ((edited || conflictSettled) && !state.save.conflict) schedule();
    });
    return () => {
      disposed = true;
      unsubscribe();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [store, queryClient]);
}

/** Saves the local document over the server's copy, based on the version that won. */
export async function overwriteServerCopy(store: ReturnType<typeof useEditorStoreApi>, basedOn: StoredWorkflow) {
  const state = store.getState();
  const revision = state.save.revision;
  state.saveStarted(revision);
  try {
    const stored = await api.workflows.update(state.workflowId, { ...state.toDocument(), version: basedOn.version });
    store.getState().saveSucceeded(stored, revision);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) store.getState().saveConflicted(conflictWinner(error));
    else store.getState().saveFailed(error instanceof ApiError ? error.message : "The server could not be reached.");
  }
}
