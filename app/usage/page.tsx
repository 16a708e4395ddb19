import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell } from "@/components/shell";
import { UsagePage } from "@/components/usage/usage-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Usage · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/usage");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[{ label: "Usage" }]}>
        <UsagePage />
      </AppShell>
    </WorkspaceGate>
  );
}
