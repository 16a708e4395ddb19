import { WorkspaceGate } from "@/components/auth/workspace-context";
import { filtersFromSearch, RunListPage } from "@/components/run-list";
import { AppShell } from "@/components/shell";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Runs · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const access = await requireWorkspace("/runs");
  const filters = filtersFromSearch(await searchParams);
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[{ label: "Runs" }]}>
        <RunListPage initialFilters={filters} />
      </AppShell>
    </WorkspaceGate>
  );
}
