import { WorkflowHome } from "@/components/workflows/workflow-home";
import { requireSignedIn } from "@/lib/auth";

export const dynamic = "force-dynamic";

/** The home page; the first visit leads to /setup (no owner yet), a signed-out one to /sign-in. */
export default async function HomePage() {
  await requireSignedIn("/");
  return <WorkflowHome />;
}
