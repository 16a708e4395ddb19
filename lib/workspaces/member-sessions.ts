import "server-only";
import type { MemberSession, WorkspaceRole } from "@/contract";
import { TrellisError } from "@/executor";
import { NotFoundError, type PrismaClient } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * A member's browser sessions (better-auth's `sessions` rows), as their workspace's admins see
 * and end them. A deleted row is a signed-out browser on every process at once: a session is read
 * from the database on each request (no cookie cache), as lib/auth configures better-auth.
 */

type Transaction = Prisma.TransactionClient;

/** Who was signed out, for the audit entry written in the same transaction. */
export interface SessionsEnded {
  name: string;
  email: string;
  ended: number;
}

/** Told of the sessions ended inside their transaction, so its audit entry commits or rolls back with them. */
export type SessionsEndedHook = (tx: Transaction, ended: SessionsEnded) => Promise<void>;

async function memberOf(db: Transaction | PrismaClient, workspaceId: string, userId: string) {
  const member = await db.workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true, user: { select: { name: true, email: true } } },
  });
  if (!member) throw new NotFoundError("Member", userId);
  return member;
}

function refuseOwnerUnlessOwner(memberRole: string, actorRole: WorkspaceRole): void {
  if (memberRole === "owner" && actorRole !== "owner")
    throw new TrellisError("forbidden", "Only an owner can end an owner's sessions.");
}

export function memberSessions(prisma: PrismaClient, now: () => Date = () => new Date()) {
  return {
    /** The member's unexpired sessions, most recently active first; 404 for someone not in the workspace. */
    async list(workspaceId: string, userId: string): Promise<MemberSession[]> {
      await memberOf(prisma, workspaceId, userId);
      const rows = await prisma.session.findMany({
        where: { userId, expiresAt: { gt: now() } },
        orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
        select: { id: true, createdAt: true, updatedAt: true, expiresAt: true, ipAddress: true, userAgent: true },
      });
      return rows.map((row) => ({
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        lastActiveAt: row.updatedAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        address: row.ipAddress,
        userAgent: row.userAgent,
      }));
    },

    /**
     * Ends one session of the member (`sessionId`) or all of them (null), telling `onEnded` in the
     * same transaction. An unknown session, or another person's, is 404.
     */
    async revoke(
      workspaceId: string,
      userId: string,
      sessionId: string | null,
      actorRole: WorkspaceRole,
      onEnded: SessionsEndedHook,
    ): Promise<number> {
      return prisma.$transaction(async (tx) => {
        const member = await memberOf(tx, workspaceId, userId);
        refuseOwnerUnlessOwner(member.role, actorRole);
        const { count } = await tx.session.deleteMany({ where: { userId, ...(sessionId ? { id: sessionId } : {}) } });
        if (sessionId && count === 0) throw new NotFoundError("Session", sessionId);
        await onEnded(tx, { ...member.user, ended: count });
        return count;
      });
    },
  };
}

export type MemberSessionService = ReturnType<typeof memberSessions>;
