import "server-only";
import { acceptInvitationRequestSchema, passwordProblem, type InvitationPreview } from "@/contract";
import { TrellisError } from "@/executor";
import type { SessionUser } from "@/contract";
import { auditByUser, recordAudit } from "@/lib/audit";
import type { PrismaClient, WorkspaceRepository } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";

const MAX_BODY_BYTES = 16 * 1024;

const INVALID_INVITATION =
  "This invitation is no longer valid: it was used, revoked or has expired. Ask for a new one.";

export interface InvitationEndpointDependencies {
  workspaces: WorkspaceRepository;
  prisma: PrismaClient;
  /** The signed-in user of the request's session cookie, or null. */
  session(request: Request): Promise<SessionUser | null>;
  /** Creates the invitee's account (password rules checked, email free); signs nobody in. */
  createUser(user: { name: string; email: string; password: string }): Promise<SessionUser>;
}

/**
 * The invitation link's two calls, under /api/auth (public: the token in the path is the
 * credential, and it is only ever stored hashed). GET shows what the invitation is for; POST
 * accepts it, either as the signed-in user the invitation names or by creating that user's
 * account with a name and password (the invitee then signs in as usual).
 */
export function invitationEndpoints(deps: () => InvitationEndpointDependencies) {
  async function openInvitation(token: string) {
    const invitation = await deps().workspaces.openInvitation(token);
    if (!invitation) throw new TrellisError("not_found", INVALID_INVITATION);
    return invitation;
  }
  async function accountExists(email: string): Promise<boolean> {
    return (
      (await deps().prisma.user.findFirst({
        where: { email: { equals: email, mode: "insensitive" } },
        select: { id: true },
      })) !== null
    );
  }

  return {
    preview: endpoint("previewInvitation", async (_request, { token }) => {
      const invitation = await openInvitation(token);
      const preview: InvitationPreview = {
        workspaceName: invitation.workspaceName,
        email: invitation.email,
        role: invitation.role,
        invitedBy: invitation.invitedBy,
        expiresAt: invitation.expiresAt.toISOString(),
        accountExists: await accountExists(invitation.email),
      };
      return Response.json(preview);
    }),
    accept: endpoint("acceptInvitation", async (request, { token }) => {
      const body = await readJsonRequest(request, acceptInvitationRequestSchema, {
        subject: "The answer",
        maxBytes: MAX_BODY_BYTES,
        emptyAs: {},
      });
      const invitation = await openInvitation(token);
      let user: { userId: string; name: string };
      if (body.password !== undefined) {
        if (await accountExists(invitation.email)) {
          throw new TrellisError(
            "conflict",
            `An account for ${invitation.email} exists already: sign in, then open the link again.`,
          );
        }
        if (!body.name)
          throw new TrellisError("invalid_request", "Give your name to create the account.", {
            details: [{ path: "name", message: "is required" }],
          });
        const problem = passwordProblem(body.password);
        if (problem)
          throw new TrellisError("invalid_request", problem, { details: [{ path: "password", message: problem }] });
        user = await deps().createUser({ name: body.name, email: invitation.email, password: body.password });
      } else {
        const session = await deps().session(request);
        if (!session)
          throw new TrellisError(
            "unauthenticated",
            "Sign in as the invited person to accept, or send a name and password to create the account.",
          );
        if (session.email.toLowerCase() !== invitation.email.toLowerCase()) {
          throw new TrellisError(
            "forbidden",
            `This invitation is for ${invitation.email}; you are signed in as ${session.email}.`,
          );
        }
        user = session;
      }
      const workspaceId = await deps().workspaces.acceptInvitation(invitation.id, user.userId, (tx, joined) =>
        recordAudit(tx, joined.workspaceId, auditByUser(request, user), {
          action: "member.join",
          object: { type: "member", id: user.userId, name: user.name },
          summary: { after: { email: invitation.email, role: joined.role } },
        }),
      );
      return Response.json({ workspaceId, email: invitation.email });
    }),
  };
}

export type InvitationEndpoints = ReturnType<typeof invitationEndpoints>;
