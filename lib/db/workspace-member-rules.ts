import "server-only";
import type { WorkspaceRole } from "@/contract";
import { TrellisError } from "@/executor";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { roleOf } from "./workspace-rows";

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Takes the workspace's row lock for the rest of the transaction and answers the actor's role as
 * it is now. Every change to members that the last-owner rule guards runs behind this lock, so two
 * owners demoting or removing each other at once are serialised: the second sees the first's
 * change (READ COMMITTED re-reads after the lock) and is refused, instead of both passing the
 * count of other owners. The actor's role is read after the lock for the same reason: an owner
 * demoted a moment ago no longer acts as one.
 * @throws not_found when the workspace is gone; forbidden when the actor is no longer a member
 */
export async function lockWorkspaceMembers(
  tx: Transaction,
  workspaceId: string,
  actorUserId: string,
): Promise<WorkspaceRole> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
  if (locked.length === 0) throw new TrellisError("not_found", `Workspace "${workspaceId}" was not found`);
  const actor = await tx.workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: actorUserId } },
    select: { role: true },
  });
  if (!actor) throw new TrellisError("forbidden", "You are no longer a member of this workspace.");
  return roleOf(actor.role);
}

/** @throws conflict when no owner other than `userId` would remain */
export async function assertAnotherOwner(
  tx: Transaction,
  workspaceId: string,
  userId: string,
  verb: string,
): Promise<void> {
  const others = await tx.workspaceMember.count({ where: { workspaceId, role: "owner", userId: { not: userId } } });
  if (others === 0)
    throw new TrellisError(
      "conflict",
      `You cannot ${verb} the workspace's last owner: make another member an owner first.`,
    );
}
