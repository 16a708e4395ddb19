import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { ApiKeysPage } from "@/components/settings/api-keys-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "API keys · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/api-keys");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "API keys" }]}>
        <ApiKeysPage />
      </AppShell>
    </WorkspaceGate>
  );
}
