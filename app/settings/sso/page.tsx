import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { SsoSettingsPage } from "@/components/settings/sso-settings-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Single sign-on · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/sso");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Single sign-on" }]}>
        <SsoSettingsPage />
      </AppShell>
    </WorkspaceGate>
  );
}
