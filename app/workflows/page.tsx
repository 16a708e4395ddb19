import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell } from "@/components/shell";
import { WorkflowHome } from "@/components/workflows/workflow-home";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Workflows · Trellis" };
export const dynamic = "force-dynamic";

/** The workflows, as home lists them: the sidebar's Workflows and the editor's breadcrumb lead here. */
export default async function Page() {
  const access = await requireWorkspace("/workflows");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[{ label: "Workflows" }]}>
        <WorkflowHome />
      </AppShell>
    </WorkspaceGate>
  );
}
