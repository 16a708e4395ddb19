"use client";

import { Sparkles } from "lucide-react";
import { useEditorStore, useEditorStoreApi } from "@/components/editor/store";

/** On a failed run the editor follows: asks the copilot why, with the run's errors and trace. */
export function ExplainFailure() {
  const store = useEditorStoreApi();
  const runId = useEditorStore((state) =>
    !state.readOnly && state.run.view.status === "failed" ? (state.run.target?.runId ?? null) : null,
  );
  if (!runId) return null;
  return (
    <button
      type="button"
      className="flex items-center gap-1 text-xs text-indigo-700 hover:underline"
      onClick={() => store.getState().askCopilot({ message: "Why did this run fail, and how do I fix it?", runId })}
      data-testid="explain-failure"
    >
      <Sparkles className="h-3.5 w-3.5" aria-hidden /> Why did this fail?
    </button>
  );
}
