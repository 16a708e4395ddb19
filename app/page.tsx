import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell } from "@/components/shell";
import { WorkflowHome } from "@/components/workflows/workflow-home";
import { requireWorkspace } from "@/lib/auth/page-access";

export const dynamic = "force-dynamic";

/** The home page: the workflows. The first visit leads to /setup (no owner yet), a signed-out one to /sign-in. */
export default async function HomePage() {
  const access = await requireWorkspace("/");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[{ label: "Workflows" }]}>
        <WorkflowHome />
      </AppShell>
    </WorkspaceGate>
  );
}
