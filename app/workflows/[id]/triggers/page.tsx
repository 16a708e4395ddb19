import { WorkspaceGate } from "@/components/auth/workspace-context";
import { TriggersPage } from "@/components/triggers/triggers-page";
import { requireWorkspace } from "@/lib/auth";

export const metadata = { title: "Triggers · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await requireWorkspace(`/workflows/${encodeURIComponent(id)}/triggers`);
  return (
    <WorkspaceGate {...access}>
      <TriggersPage workflowId={id} />
    </WorkspaceGate>
  );
}
