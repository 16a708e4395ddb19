import "server-only";
import { createUserByInvitation, sessionOf } from "@/lib/auth";
import { getPrisma, getRepositories } from "@/lib/db";
import { invitationEndpoints } from "./invitation-endpoints";
import { workspaceEndpoints } from "./workspace-endpoints";

/** The workspace endpoints over the app's database. */
export const appWorkspaceEndpoints = workspaceEndpoints(() => ({
  workspaces: getRepositories().workspaces,
  publicUrl: process.env.TRELLIS_PUBLIC_URL?.trim() || undefined,
}));

/** The invitation link's endpoints over the app's database and auth. */
export const appInvitationEndpoints = invitationEndpoints(() => ({
  workspaces: getRepositories().workspaces,
  prisma: getPrisma(),
  session: (request) => sessionOf(request),
  createUser: (user) => createUserByInvitation(user),
}));
