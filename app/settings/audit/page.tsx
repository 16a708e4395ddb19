import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { AuditLogPage } from "@/components/settings/audit-log-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Audit log · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/audit");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Audit log" }]}>
        <AuditLogPage />
      </AppShell>
    </WorkspaceGate>
  );
}
