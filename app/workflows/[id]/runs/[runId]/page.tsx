import type { Metadata } from "next";
import "@xyflow/react/dist/style.css";
import { WorkspaceGate } from "@/components/auth/workspace-context";
import { PastRunEditor } from "@/components/editor";
import { roleAtLeast } from "@/contract";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata: Metadata = { title: "Run · Trellis" };
export const dynamic = "force-dynamic";

/** A run's own page: the workflow as the run ran it, read-only, with the run's states and trace. */
export default async function RunPage({ params }: { params: Promise<{ id: string; runId: string }> }) {
  const { id, runId } = await params;
  const access = await requireWorkspace(`/workflows/${encodeURIComponent(id)}/runs/${encodeURIComponent(runId)}`);
  // The graph is read-only for everyone; an editor may still answer a live run's approvals and asks.
  const mayAct = access.workspace !== null && roleAtLeast(access.workspace.role, "editor");
  return (
    <WorkspaceGate {...access}>
      <PastRunEditor workflowId={id} runId={runId} mayAct={mayAct} />
    </WorkspaceGate>
  );
}
