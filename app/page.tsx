import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { WorkflowHome } from "@/components/workflows/workflow-home";
import { currentSession, ownerExists } from "@/lib/auth";

export const dynamic = "force-dynamic";

/** The home page; the first visit leads to /setup (no owner yet), a signed-out one to /sign-in. */
export default async function HomePage() {
  if (!(await ownerExists())) redirect("/setup");
  if (!(await currentSession(await headers()))) redirect("/sign-in");
  return <WorkflowHome />;
}
