import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { SessionUser } from "@/contract";
import { currentSession, ownerExists } from "./authenticate";

/**
 * For a page that needs a signed-in user: before the owner exists every visitor goes to /setup; a
 * signed-out visitor goes to /sign-in and comes back to `returnTo` afterwards.
 */
export async function requireSignedIn(returnTo: string): Promise<SessionUser> {
  if (!(await ownerExists())) redirect("/setup");
  const session = await currentSession(await headers());
  if (!session) redirect(returnTo === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(returnTo)}`);
  return session;
}
