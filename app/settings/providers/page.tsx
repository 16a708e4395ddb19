import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { ModelProvidersPage } from "@/components/settings/model-providers-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Model providers · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/providers");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Model providers" }]}>
        <ModelProvidersPage />
      </AppShell>
    </WorkspaceGate>
  );
}
