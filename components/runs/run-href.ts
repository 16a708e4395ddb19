/** Where a run is shown: the editor opened on it (use-run-from-url.ts), its trace beside the canvas. */
export function runHref(workflowId: string, runId: string): string {
  return `/workflows/${encodeURIComponent(workflowId)}?run=${encodeURIComponent(runId)}`;
}
