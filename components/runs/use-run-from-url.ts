"use client";

import { useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { useEditorStoreApi } from "@/components/editor/store";

/**
 * `/workflows/:id?run=<runId>` opens the editor on that run: replayed onto the canvas with its
 * trace shown, as picking it in the run history does. Links to a run (a webhook's delivery) use it.
 */
export function useRunFromUrl(): void {
  const store = useEditorStoreApi();
  const runId = useSearchParams().get("run");
  useEffect(() => {
    if (!runId) return;
    store.getState().followRun(runId);
    store.getState().showRunTab("trace");
  }, [store, runId]);
}
