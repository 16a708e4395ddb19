import { WorkspaceGate } from "@/components/auth/workspace-context";
import { AppShell } from "@/components/shell";
import { KnowledgePage } from "@/components/knowledge/knowledge-page";
import { requireWorkspace } from "@/lib/auth/page-access";

export const metadata = { title: "Knowledge · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/knowledge");
  return (
    <WorkspaceGate {...access}>
      <AppShell breadcrumbs={[{ label: "Knowledge" }]}>
        <KnowledgePage />
      </AppShell>
    </WorkspaceGate>
  );
}
