import "server-only";
import { createUserByInvitation, sessionOf } from "@/lib/auth";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, getRepositories } from "@/lib/db";
import { invitationEndpoints } from "./invitation-endpoints";
import { memberSessionEndpoints } from "./member-session-endpoints";
import { memberSessions } from "./member-sessions";
import { workspaceEndpoints } from "./workspace-endpoints";

/** The workspace endpoints over the app's database. */
export const appWorkspaceEndpoints = workspaceEndpoints(
  () => ({
    workspaces: getRepositories().workspaces,
    publicUrl: process.env.TRELLIS_PUBLIC_URL?.trim() || undefined,
  }),
  auditRequestsTo(getPrisma),
);

/** The invitation link's endpoints over the app's database and auth. */
export const appInvitationEndpoints = invitationEndpoints(() => ({
  workspaces: getRepositories().workspaces,
  prisma: getPrisma(),
  session: (request) => sessionOf(request),
  createUser: (user) => createUserByInvitation(user),
}));

/** A member's sessions, for the workspace's admins, over the app's database. */
export const appMemberSessionEndpoints = memberSessionEndpoints(
  () => memberSessions(getPrisma()),
  auditRequestsTo(getPrisma),
);
