"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { useEditorStoreApi } from "@/components/editor/store";
import { runHref } from "@/components/ui/run-href";

/**
 * Where a run started from the run panel (Run from here, Replay) is watched: the editor follows
 * it in place, as it follows Run; a past run's editor shows only its own run and graph, so the new
 * run opens on its own page.
 */
export function useOpenStartedRun(): (runId: string) => void {
  const router = useRouter();
  const editor = useEditorStoreApi();
  return useCallback(
    (runId: string) => {
      const { pastRun, workflowId, followRun } = editor.getState();
      if (pastRun) router.push(runHref(workflowId, runId));
      else followRun(runId);
    },
    [router, editor],
  );
}
