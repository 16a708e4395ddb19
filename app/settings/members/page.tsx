import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { MembersPage } from "@/components/settings/members-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Members · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/members");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Members" }]}>
        <MembersPage />
      </AppShell>
    </WorkspaceGate>
  );
}
