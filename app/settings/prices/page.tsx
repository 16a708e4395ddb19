import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { PricesPage } from "@/components/settings/prices-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Prices · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/prices");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Prices" }]}>
        <PricesPage />
      </AppShell>
    </WorkspaceGate>
  );
}
