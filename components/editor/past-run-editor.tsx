"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { ReactFlowProvider } from "@xyflow/react";
import { ApiError, api } from "@/contract";
import { runHref } from "@/components/ui/run-href";
import { EditorLayout } from "./editor-layout";
import { graphOfRun } from "./graph/graph-of-run";
import { EditorStoreProvider, type PastRun } from "./store";

/**
 * A past run on the graph it ran (its own URL): the editor, read-only, on the run's stored
 * document rather than today's draft, so a block renamed or removed since shows as it was, with
 * the run's states, badges and trace painted on it. A run that kept no document (stored before
 * runs did) is shown on the current workflow, and its banner says so.
 */
export function PastRunEditor({ workflowId, runId, mayAct }: { workflowId: string; runId: string; mayAct: boolean }) {
  const router = useRouter();
  const ran = useQuery({
    queryKey: ["run-document", runId],
    queryFn: () => api.runs.document(runId),
    staleTime: Infinity,
    retry: false,
  });
  const current = useQuery({
    queryKey: ["workflow", workflowId],
    queryFn: () => api.workflows.get(workflowId),
    staleTime: Infinity,
    retry: false,
  });
  const elsewhere = ran.data && ran.data.workflowId !== workflowId ? ran.data.workflowId : null;
  // A run's URL under another workflow's id: its own workflow's page is the one to show.
  useEffect(() => {
    if (elsewhere) router.replace(runHref(elsewhere, runId));
  }, [elsewhere, router, runId]);

  const failed = ran.error ?? current.error;
  if (failed && !elsewhere) {
    const notFound = failed instanceof ApiError && failed.status === 404;
    return (
      <div className="p-6 text-sm" role="alert">
        <p className="text-red-700" data-testid="editor-error">
          {notFound
            ? ran.error
              ? "Run not found: there is no run with this id in this workspace."
              : "Workflow not found: there is no workflow with this id in this workspace."
            : `Could not load the run: ${failed.message}`}
        </p>
        <Link href="/" className="text-indigo-600 underline">
          Back to all workflows
        </Link>
      </div>
    );
  }
  if (!ran.data || !current.data || elsewhere) {
    return (
      <p className="p-6 text-sm text-slate-500" data-testid="editor-loading">
        Loading run…
      </p>
    );
  }
  const pastRun: PastRun = {
    runId,
    workflowVersion: ran.data.workflowVersion,
    documentKept: ran.data.document !== null,
    mayAct,
  };
  return (
    <ReactFlowProvider>
      <EditorStoreProvider key={runId} initial={graphOfRun(ran.data, current.data)} pastRun={pastRun}>
        <EditorLayout />
      </EditorStoreProvider>
    </ReactFlowProvider>
  );
}
