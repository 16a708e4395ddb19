"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Rewind } from "lucide-react";
import { useState } from "react";
import { useEditorStore, useEditorStoreApi } from "@/components/editor/store";
import { api } from "@/contract";
import { runHref } from "@/components/ui/run-href";
import { useOpenStartedRun } from "./use-open-started-run";
import { whenSaved } from "./use-run-actions";

/**
 * In the run panel's header, for a finished run: "Replay" runs the current draft (saved first)
 * with every model and tool call answered from this run's recordings, so nothing is sent and
 * nothing is paid; the editor follows the replay live (a past run's editor opens the replay's page). A call the run did not record (a changed
 * prompt, a block the run never reached) fails its block "not recorded" instead of being made.
 */
export function ReplayButton() {
  const editor = useEditorStoreApi();
  const runId = useEditorStore((state) => state.run.view.runId);
  const ended = useEditorStore((state) => state.run.view.ended);
  const [starting, setStarting] = useState(false);
  const openStarted = useOpenStartedRun();
  if (!runId || !ended) return null;
  const start = async () => {
    setStarting(true);
    editor.getState().setRunActionError(null);
    try {
      await whenSaved(editor);
      const started = await api.runs.replay(runId);
      openStarted(started.runId);
    } catch (error) {
      editor
        .getState()
        .setRunActionError(`Could not replay the run: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setStarting(false);
    }
  };
  return (
    <button
      type="button"
      className="btn-secondary flex items-center gap-1 px-2 py-0.5 text-xs"
      title="Run the current draft again answering every model and tool call from this run's recordings: no provider is called, it costs $0"
      data-testid="run-replay"
      disabled={starting}
      onClick={() => void start()}
    >
      <Rewind className="h-3 w-3" aria-hidden />
      {starting ? "Starting…" : "Replay"}
    </button>
  );
}

/** In the run panel's header: the followed run is a replay of another (a link that opens it), and cost nothing. */
export function ReplayOfLink() {
  const runId = useEditorStore((state) => state.run.view.runId);
  const workflowId = useEditorStore((state) => state.workflowId);
  const run = useQuery({ queryKey: ["run", runId], queryFn: () => api.runs.get(runId!), enabled: runId !== null });
  const replayOf = run.data?.id === runId ? run.data?.replayOf : null;
  if (!replayOf) return null;
  return (
    <span
      className="text-xs text-slate-500"
      data-testid="run-replay-of"
      title="Every model and tool call was answered from the recorded run: nothing was sent, $0"
    >
      <span className="mr-1 rounded bg-amber-50 px-1 font-medium text-amber-800">Replay</span>
      of{" "}
      <Link href={runHref(workflowId, replayOf)} className="text-indigo-700 underline" data-testid="run-replay-of-link">
        run {replayOf.slice(-8)}
      </Link>
    </span>
  );
}
