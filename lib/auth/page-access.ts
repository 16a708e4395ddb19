import "server-only";
// The one lib/ file on Next's request scope and router: only pages import it, never through lib/auth's index.
// eslint-disable-next-line no-restricted-imports
import { cookies, headers } from "next/headers";
// eslint-disable-next-line no-restricted-imports
import { redirect } from "next/navigation";
import { WORKSPACE_COOKIE, type SessionUser, type WorkspaceSummary } from "@/contract";
import { getRepositories } from "@/lib/db";
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

/** What a page shows about where the user acts: the workspace (null when the user belongs to none) and the others to switch to. */
export interface PageWorkspace {
  user: SessionUser;
  workspace: WorkspaceSummary | null;
  workspaces: WorkspaceSummary[];
}

/**
 * requireSignedIn, plus the workspace the page acts in: the switcher's cookie when the user is a
 * member there, else the first workspace (the same choice the API makes for the session).
 */
export async function requireWorkspace(returnTo: string): Promise<PageWorkspace> {
  const user = await requireSignedIn(returnTo);
  const workspaces = await getRepositories().workspaces.listForUser(user.userId);
  const chosen = (await cookies()).get(WORKSPACE_COOKIE)?.value;
  const workspace = workspaces.find((candidate) => candidate.id === chosen) ?? workspaces[0] ?? null;
  return { user, workspace, workspaces };
}
