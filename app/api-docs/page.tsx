import { WorkspaceProvider } from "@/components/auth/workspace-context";
import { ApiDocsPage } from "@/components/api-docs/api-docs-page";
import { AppShell } from "@/components/shell";
import { requireWorkspace } from "@/lib/auth/page-access";
import { openApiDocument } from "@/lib/system/openapi-document";

export const metadata = { title: "API · Trellis" };
export const dynamic = "force-dynamic";

/** The REST API's reference. Any signed-in user may read it; it needs no workspace, though the sidebar shows the one acting. */
export default async function Page() {
  const { user, workspace, workspaces } = await requireWorkspace("/api-docs");
  const page = (
    <AppShell breadcrumbs={[{ label: "API docs" }]}>
      <ApiDocsPage document={openApiDocument()} />
    </AppShell>
  );
  return workspace ? <WorkspaceProvider value={{ user, workspace, workspaces }}>{page}</WorkspaceProvider> : page;
}
