"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { ReactFlowProvider } from "@xyflow/react";
import { ApiError, api } from "@/contract";
import { useWorkspace } from "@/components/auth/workspace-context";
import { EditorLayout } from "./editor-layout";
import { EditorStoreProvider } from "./store";

/**
 * Loads the workflow through React Query and hands it to a fresh editor store: server data stays
 * in the query cache, what is being edited lives in the store. `readOnly` (a viewer's role) shows
 * the workflow and its runs and changes nothing.
 */
export function WorkflowEditor({ workflowId, readOnly = false }: { workflowId: string; readOnly?: boolean }) {
  const acting = useWorkspace();
  const workflow = useQuery({
    queryKey: ["workflow", workflowId],
    queryFn: () => api.workflows.get(workflowId),
    staleTime: Infinity,
    retry: false,
  });
  if (workflow.isPending) {
    return (
      <p className="p-6 text-sm text-slate-500" data-testid="editor-loading">
        Loading workflow…
      </p>
    );
  }
  if (workflow.isError) {
    const notFound = workflow.error instanceof ApiError && workflow.error.status === 404;
    return (
      <div className="p-6 text-sm" role="alert">
        <p className="text-red-700" data-testid="editor-error">
          {notFound
            ? `Workflow not found: there is no workflow with this id${acting ? ` in ${acting.workspace.name}` : ""}.`
            : `Could not load the workflow: ${workflow.error.message}`}
        </p>
        <Link href="/" className="text-indigo-600 underline">
          Back to all workflows
        </Link>
      </div>
    );
  }
  return (
    <ReactFlowProvider>
      <EditorStoreProvider key={workflowId} initial={workflow.data} readOnly={readOnly}>
        <EditorLayout />
      </EditorStoreProvider>
    </ReactFlowProvider>
  );
}
