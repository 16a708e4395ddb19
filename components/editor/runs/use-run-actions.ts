"use client";

import { useMemo } from "react";
import { saveStatus, useEditorStoreApi, type EditorStore } from "@/components/editor/store";
import { api, type AskAnswerRequest } from "@/contract";

const SAVE_WAIT_MS = 10_000;

/** A run runs the stored workflow: wait until what is on the canvas has been saved. */
export function whenSaved(editor: EditorStore): Promise<void> {
  const check = (): "saved" | "wait" | string => {
    const status = saveStatus(editor.getState().save);
    if (status === "saved") return "saved";
    if (status === "conflict") return "The workflow changed elsewhere; settle the conflict before running it.";
    if (status === "error")
      return `The workflow could not be saved: ${editor.getState().save.error ?? "unknown error"}`;
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

/**
 * What the Run, Cancel and approval buttons do. Each reports a failure in the toolbar. Starting a
 * run only points the store at it (followRun); the run stream hook then feeds its events.
 */
export function useRunActions() {
  const editor = useEditorStoreApi();
  return useMemo(
    () => ({
      /** `test`: a test run, whose side effects are answered from the blocks' samples instead of sent. */
      async start(input: Record<string, unknown>, options: { test?: boolean } = {}): Promise<boolean> {
        editor.getState().setRunActionError(null);
        try {
          await whenSaved(editor);
          const { runId } = await api.runs.start(editor.getState().workflowId, {
            input,
            ...(options.test ? { test: true } : {}),
          });
          editor.getState().followRun(runId);
          return true;
        } catch (error) {
          editor.getState().setRunActionError(`Could not start the run: ${messageOf(error)}`);
          return false;
        }
      },
      async cancel(): Promise<void> {
        const runId = editor.getState().run.view.runId;
        if (!runId) return;
        try {
          await api.runs.cancel(runId);
        } catch (error) {
          editor.getState().setRunActionError(`Could not cancel the run: ${messageOf(error)}`);
        }
      },
      async decide(toolCallId: string, approved: boolean, reason?: string): Promise<void> {
        const runId = editor.getState().run.view.runId;
        if (!runId) return;
        try {
          await api.runs.decide(runId, toolCallId, { approved, ...(reason ? { reason } : {}) });
        } catch (error) {
          editor.getState().setRunActionError(`Could not send the decision: ${messageOf(error)}`);
        }
      },
      /** Answers a waiting ask; false (with the reason shown) when the server refused it. */
      async answer(spanId: string, answer: AskAnswerRequest): Promise<boolean> {
        const runId = editor.getState().run.view.runId;
        if (!runId) return false;
        try {
          await api.runs.answer(runId, spanId, answer);
          return true;
        } catch (error) {
          editor.getState().setRunActionError(`Could not send the answer: ${messageOf(error)}`);
          return false;
        }
      },
    }),
    [editor],
  );
}
