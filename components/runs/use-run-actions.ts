"use client";

import { useMemo } from "react";
import { saveStatus, useEditorStoreApi, type EditorStore } from "@/components/editor/store";
import { useRunStoreApi } from "./run-store";
import { api } from "@/contract";

const SAVE_WAIT_MS = 10_000;

/** A run runs the stored workflow: wait until what is on the canvas has been saved. */
function whenSaved(editor: EditorStore): Promise<void> {
  const check = (): "saved" | "wait" | string => {
    const status = saveStatus(editor.getState().save);
    if (status === "saved") return "saved";
    if (status === "conflict") return "The workflow changed elsewhere; settle the conflict before running it.";
    if (status === "error") return `The workflow could not be saved: ${editor.getState().save.error ?? "unknown error"}`;
    return "wait";
  };
  return new Promise((resolve, reject) => {
    const first = check();
    if (first === "saved") return resolve();
    if (first !== "wait") return reject(new Error(first));
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("The workflow is still being saved; try again in a moment."));
    }, SAVE_WAIT_MS);
    const unsubscribe = editor.subscribe(() => {
      const status = check();
      if (status === "wait") return;
      clearTimeout(timer);
      unsubscribe();
      if (status === "saved") resolve();
      else reject(new Error(status));
    });
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the Run, Cancel and approval buttons do. Each reports a failure in the toolbar. */
export function useRunActions() {
  const editor = useEditorStoreApi();
  const runs = useRunStoreApi();
  return useMemo(
    () => ({
      async start(input: Record<string, unknown>): Promise<boolean> {
        runs.getState().setActionError(null);
        try {
          await whenSaved(editor);
          const { runId } = await api.runs.start(editor.getState().workflowId, input);
          runs.getState().follow(runId);
          return true;
        } catch (error) {
          runs.getState().setActionError(`Could not start the run: ${messageOf(error)}`);
          return false;
        }
      },
      async cancel(): Promise<void> {
        const runId = runs.getState().view.runId;
        if (!runId) return;
        try {
          await api.runs.cancel(runId);
        } catch (error) {
          runs.getState().setActionError(`Could not cancel the run: ${messageOf(error)}`);
        }
      },
      async decide(toolCallId: string, approved: boolean, reason?: string): Promise<void> {
        const runId = runs.getState().view.runId;
        if (!runId) return;
        try {
          await api.runs.decide(runId, toolCallId, { approved, ...(reason ? { reason } : {}) });
        } catch (error) {
          runs.getState().setActionError(`Could not send the decision: ${messageOf(error)}`);
        }
      },
    }),
    [editor, runs],
  );
}
