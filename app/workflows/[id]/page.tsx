import type { Metadata } from "next";
import "@xyflow/react/dist/style.css";
import { WorkspaceGate } from "@/components/auth/workspace-context";
import { WorkflowEditor } from "@/components/editor";
import { roleAtLeast } from "@/contract";
import { requireWorkspace } from "@/lib/auth";

export const metadata: Metadata = { title: "Workflow · Trellis" };
export const dynamic = "force-dynamic";

export default async function WorkflowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireWorkspace(`/workflows/${encodeURIComponent(id)}`);
  // Viewers see the workflow and its runs, and change nothing (the API refuses them too).
  const readOnly = access.workspace !== null && !roleAtLeast(access.workspace.role, "editor");
  return (
    <WorkspaceGate {...access}>
      <WorkflowEditor workflowId={id} readOnly={readOnly} />
    </WorkspaceGate>
  );
}
