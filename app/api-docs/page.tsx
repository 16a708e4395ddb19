import { WorkspaceProvider } from "@/components/auth/workspace-context";
import { ApiDocsPage } from "@/components/api-docs/api-docs-page";
import { requireWorkspace } from "@/lib/auth";
import { openApiDocument } from "@/lib/system/openapi-document";

export const metadata = { title: "API · Trellis" };
export const dynamic = "force-dynamic";

/** The REST API's reference. Any signed-in user may read it; it needs no workspace, though the header shows the one acting. */
export default async function Page() {
  const { user, workspace, workspaces } = await requireWorkspace("/api-docs");
  const page = <ApiDocsPage document={openApiDocument()} />;
  return workspace ? <WorkspaceProvider value={{ user, workspace, workspaces }}>{page}</WorkspaceProvider> : page;
}
