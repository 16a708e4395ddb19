import type { PastRun } from "@/components/editor/store";

/** The banner's words on which graph is shown: the run's own (which version, against today's), or the current one for a run that kept none. */
export function pastRunVersionText(pastRun: PastRun, currentVersion: number | undefined): string {
  const now = currentVersion === undefined ? "" : ` (the workflow is now at version ${currentVersion})`;
  if (!pastRun.documentKept) {
    return `This run was stored before runs kept their workflow: shown on the current workflow${now}, which may differ from what it ran.`;
  }
  if (pastRun.workflowVersion === null) return `Shown on the workflow as it ran; its version was not recorded${now}.`;
  if (pastRun.workflowVersion === currentVersion)
    return `Version ${pastRun.workflowVersion}, the current one. Read-only.`;
  return `Version ${pastRun.workflowVersion}, as it ran${now}. Read-only.`;
}
