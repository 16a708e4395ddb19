import { WorkspaceGate } from "@/components/auth/workspace-context";
import { SecretsPage } from "@/components/settings/secrets-page";
import { requireWorkspace } from "@/lib/auth";

export const metadata = { title: "Secrets · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  const access = await requireWorkspace("/settings/secrets");
  return (
    <WorkspaceGate {...access}>
      <SecretsPage />
    </WorkspaceGate>
  );
}
