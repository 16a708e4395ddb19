import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SettingsIndex } from "@/components/shell";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Settings · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[{ label: "Settings" }]}>
        <SettingsIndex />
      </AppShell>
    </WorkspaceGate>
  );
}
