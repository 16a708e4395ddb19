/** A run's own page: the editor, read-only, on the graph the run ran, with its states and trace (app/workflows/[id]/runs/[runId]). */
export function runHref(workflowId: string, runId: string): string {
  return `/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}`;
}

/** The workflow's editor, on its current draft. */
export function workflowHref(workflowId: string): string {
  return `/workflows/${encodeURIComponent(workflowId)}`;
}
