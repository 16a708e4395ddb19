import "server-only";
import type { MemberSessions, SessionsRevoked } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import type { Member } from "@/lib/auth";
import { endpoint } from "@/lib/http/endpoint";
import type { MemberSessionService, SessionsEndedHook } from "./member-sessions";

/**
 * A member's sessions for the workspace's admins (docs/CONTRACT.md section 7): list them, end one,
 * end all. Each ending is one audit entry, written in the same transaction.
 */
export function memberSessionEndpoints(sessions: () => MemberSessionService, audit: AuditRequest) {
  const recordEnded =
    (request: Request, member: Member, userId: string, sessionId: string | null): SessionsEndedHook =>
    (tx, ended) =>
      audit(
        request,
        member,
        {
          action: "session.revoke",
          object: { type: "member", id: userId, name: ended.name },
          summary: { after: { sessionsEnded: ended.ended, ...(sessionId ? { sessionId } : { all: true }) } },
        },
        tx,
      );

  return {
    list: endpoint("listMemberSessions", async (_request, { userId }, { workspace }) => {
      const answer: MemberSessions = { sessions: await sessions().list(workspace.id, userId) };
      return Response.json(answer);
    }),
    revokeOne: endpoint("revokeMemberSession", async (request, { userId, sessionId }, member) => {
      await sessions().revoke(
        member.workspace.id,
        userId,
        sessionId,
        member.workspace.role,
        recordEnded(request, member, userId, sessionId),
      );
      return new Response(null, { status: 204 });
    }),
    revokeAll: endpoint("revokeMemberSessions", async (request, { userId }, member) => {
      const revoked = await sessions().revoke(
        member.workspace.id,
        userId,
        null,
        member.workspace.role,
        recordEnded(request, member, userId, null),
      );
      return Response.json({ revoked } satisfies SessionsRevoked);
    }),
  };
}

export type MemberSessionEndpoints = ReturnType<typeof memberSessionEndpoints>;
