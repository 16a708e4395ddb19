import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell, SETTINGS_CRUMB } from "@/components/shell";
import { BudgetsPage } from "@/components/settings/budgets-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Budgets · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/budgets");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[SETTINGS_CRUMB, { label: "Budgets" }]}>
        <BudgetsPage />
      </AppShell>
    </WorkspaceGate>
  );
}
