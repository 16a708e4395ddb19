import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { SecretsPage } from "@/components/settings/secrets-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Secrets · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/secrets");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Secrets" }]}>
        <SecretsPage />
      </AppShell>
    </WorkspaceGate>
  );
}
