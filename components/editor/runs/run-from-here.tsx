"use client";

import { Redo2 } from "lucide-react";
import { useState } from "react";
import { nodeById, useEditorStore, useEditorStoreApi } from "@/components/editor/store";
import { api } from "@/contract";
import { mayRunFromHere } from "./run-from-here-offer";
import { useOpenStartedRun } from "./use-open-started-run";
import { whenSaved } from "./use-run-actions";

/**
 * "Run from here" on a block of a finished run: a new run of the draft (saved first) that reuses
 * this run's results for the blocks before this one and runs it and what follows; the editor
 * follows the new run live. Shown only for a finished run of this workflow and a block the draft
 * has that ran in it. A child run is refused by the API (it keeps no results), its 400 shown here.
 */
export function RunFromHereButton({ blockId, place }: { blockId: string; place: "node" | "details" }) {
  const editor = useEditorStoreApi();
  const runId = useEditorStore((state) => state.run.view.runId);
  const offered = useEditorStore((state) => mayRunFromHere(state.run.view, blockId));
  const inDraft = useEditorStore((state) => nodeById(state.nodes, blockId) !== undefined);
  const [starting, setStarting] = useState(false);
  const openStarted = useOpenStartedRun();
  if (!runId || !offered || !inDraft) return null;
  const start = async () => {
    setStarting(true);
    editor.getState().setRunActionError(null);
    try {
      await whenSaved(editor);
      const started = await api.runs.rerun(runId, blockId);
      openStarted(started.runId);
    } catch (error) {
      editor
        .getState()
        .setRunActionError(`Could not run from this block: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setStarting(false);
    }
  };
  return (
    <button
      type="button"
      className={
        place === "node"
          ? "nodrag ml-auto flex items-center gap-0.5 rounded px-1 text-indigo-700 hover:bg-indigo-50"
          : "btn-secondary px-2 py-0.5 text-xs"
      }
      title="Run this block and what follows again on the current draft, reusing this run's results for the blocks before it"
      data-testid={place === "node" ? `run-from-here-${blockId}` : "span-run-from-here"}
      disabled={starting}
      onClick={(event) => {
        event.stopPropagation();
        void start();
      }}
    >
      <Redo2 className="h-3 w-3" aria-hidden />
      {starting ? "Starting…" : "Run from here"}
    </button>
  );
}
