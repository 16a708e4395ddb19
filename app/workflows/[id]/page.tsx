import type { Metadata } from "next";
import { redirect } from "next/navigation";
import "@xyflow/react/dist/style.css";
import { WorkspaceGate } from "@/components/auth/workspace-context";
import { WorkflowEditor } from "@/components/editor";
import { runHref } from "@/components/ui/run-href";
import { roleAtLeast } from "@/contract";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata: Metadata = { title: "Workflow · Trellis" };
export const dynamic = "force-dynamic";

export default async function WorkflowPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ run?: string | string[] }>;
}) {
  const { id } = await params;
  // `?run=<runId>`, the link runs had before they had their own page: a run is shown on the graph it ran.
  const { run } = await searchParams;
  if (typeof run === "string" && run) redirect(runHref(id, run));
  const access = await requireWorkspace(`/workflows/${encodeURIComponent(id)}`);
  // Viewers see the workflow and its runs, and change nothing (the API refuses them too).
  const readOnly = access.workspace !== null && !roleAtLeast(access.workspace.role, "editor");
  return (
    <WorkspaceGate {...access}>
      <WorkflowEditor workflowId={id} readOnly={readOnly} />
    </WorkspaceGate>
  );
}
