import "server-only";
import { createHash, randomBytes } from "node:crypto";
import {
  PAGE_LIMIT_DEFAULT,
  roleAtLeast,
  type WorkspaceInvitation,
  type WorkspaceMember,
  type WorkspaceMembers,
  type WorkspaceRole,
  type WorkspaceSummary,
} from "@/contract";
import { TrellisError } from "@/executor";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { NotFoundError } from "./errors";
import { assertAnotherOwner, lockWorkspaceMembers } from "./workspace-member-rules";
import {
  afterTimeAndId,
  keysetResult,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type TimeAndId,
} from "./keyset";
import {
  INVITATION_COLUMNS,
  MEMBERSHIP_COLUMNS,
  roleOf,
  toInvitation,
  toWorkspaceSummary,
  type MembersPosition,
} from "./workspace-rows";

/** How long an invitation link stays valid. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const FIRST_WORKSPACE_NAME = "Main workspace";

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** An invitation found by its link's token, still open (not accepted, not expired). */
export interface OpenInvitation {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: WorkspaceRole;
  invitedBy: string | null;
  expiresAt: Date;
}

/** Told of a change to members inside its transaction, so what it writes (an audit entry) commits or rolls back with it. */
export type MemberChangeHook<Change> = (tx: Prisma.TransactionClient, change: Change) => Promise<void>;

/**
 * Workspaces, their members and invitations. The rules that keep a workspace governable live
 * here, inside the transactions that change members: a workspace always keeps an owner, and only
 * an owner makes or unmakes owners.
 */
export class WorkspaceRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The user's workspaces with the user's role, in the order joined (the first is the default). */
  async listForUser(userId: string): Promise<WorkspaceSummary[]> {
    const rows = await this.prisma.workspaceMember.findMany({
      where: { userId },
      orderBy: [{ createdAt: "asc" }, { workspaceId: "asc" }],
      select: MEMBERSHIP_COLUMNS,
    });
    return rows.map(toWorkspaceSummary);
  }

  /** A page of the user's workspaces, in the order joined; the position is the joining time and the workspace's id. */
  async pageForUser(userId: string, page: KeysetPage<TimeAndId>): Promise<KeysetResult<WorkspaceSummary, TimeAndId>> {
    const rows = await this.prisma.workspaceMember.findMany({
      where: { userId, ...afterTimeAndId("createdAt", "workspaceId", "asc", page.after) },
      orderBy: [{ createdAt: "asc" }, { workspaceId: "asc" }],
      select: MEMBERSHIP_COLUMNS,
      take: page.limit + 1,
    });
    return keysetResult(rows, page.limit, toWorkspaceSummary, (row) => timeAndIdOf(row.createdAt, row.workspace.id));
  }

  /** The ids among `ids` of the workspace's knowledge bases or workflows (what a block's config may name). */
  async heldIds(workspaceId: string, kind: "knowledgeBase" | "workflow", ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const where = { workspaceId, id: { in: [...ids] } };
    const rows =
      kind === "workflow"
        ? await this.prisma.workflow.findMany({ where, select: { id: true } })
        : await this.prisma.knowledgeBase.findMany({ where, select: { id: true } });
    return new Set(rows.map((row) => row.id));
  }

  /** The user's role in the workspace, or null when not a member (or no such workspace). */
  async roleOf(workspaceId: string, userId: string): Promise<WorkspaceRole | null> {
    const row = await this.prisma.workspaceMember.findUnique({
      where: { workspaceId_userId: { workspaceId, userId } },
      select: { role: true },
    });
    return row ? roleOf(row.role) : null;
  }

  /** A new workspace with the user as its owner. */
  async create(userId: string, name: string): Promise<WorkspaceSummary> {
    const workspace = await this.prisma.workspace.create({
      data: { name, members: { create: { userId, role: "owner" } } },
    });
    return { id: workspace.id, name: workspace.name, role: "owner", createdAt: workspace.createdAt.toISOString() };
  }

  /** @throws NotFoundError */
  async rename(workspaceId: string, name: string): Promise<void> {
    const { count } = await this.prisma.workspace.updateMany({ where: { id: workspaceId }, data: { name } });
    if (count === 0) throw new NotFoundError("Workspace", workspaceId);
  }

  /**
   * The owner's first workspace: one left without members (data kept from before accounts
   * existed, see the workspaces migration) is adopted, else a new one is made. Does nothing for a
   * user who already belongs to a workspace.
   */
  async ensureFirstWorkspace(userId: string): Promise<string> {
    return this.prisma.$transaction(async (tx) => {
      const existing = await tx.workspaceMember.findFirst({
        where: { userId },
        orderBy: { createdAt: "asc" },
        select: { workspaceId: true },
      });
      if (existing) return existing.workspaceId;
      const orphan = await tx.workspace.findFirst({
        where: { members: { none: {} } },
        orderBy: { createdAt: "asc" },
        select: { id: true },
      });
      if (orphan) {
        await tx.workspaceMember.create({ data: { workspaceId: orphan.id, userId, role: "owner" } });
        return orphan.id;
      }
      const created = await tx.workspace.create({
        data: { name: FIRST_WORKSPACE_NAME, members: { create: { userId, role: "owner" } } },
      });
      return created.id;
    });
  }

  /**
   * A page of members (oldest first) and of open invitations (newest first): up to `limit` of
   * each, each list going on from its own position, `next` null once both are shown whole.
   */
  async members(
    workspaceId: string,
    page: KeysetPage<MembersPosition> = { limit: PAGE_LIMIT_DEFAULT },
    now: Date = new Date(),
  ): Promise<WorkspaceMembers & { next: MembersPosition | null }> {
    const { limit, after } = page;
    const [members, invitations] = await Promise.all([
      after && !after.members
        ? []
        : this.prisma.workspaceMember.findMany({
            where: { workspaceId, ...afterTimeAndId("createdAt", "userId", "asc", after?.members) },
            orderBy: [{ createdAt: "asc" }, { userId: "asc" }],
            select: { role: true, createdAt: true, user: { select: { id: true, name: true, email: true } } },
            take: limit + 1,
          }),
      after && !after.invitations
        ? []
        : this.prisma.workspaceInvitation.findMany({
            where: {
              workspaceId,
              acceptedAt: null,
              expiresAt: { gt: now },
              ...afterTimeAndId("createdAt", "id", "desc", after?.invitations),
            },
            orderBy: [{ createdAt: "desc" }, { id: "desc" }],
            select: INVITATION_COLUMNS,
            take: limit + 1,
          }),
    ]);
    const memberPage = keysetResult(
      members,
      limit,
      (row): WorkspaceMember => ({
        userId: row.user.id,
        name: row.user.name,
        email: row.user.email,
        role: roleOf(row.role),
        joinedAt: row.createdAt.toISOString(),
      }),
      (row) => timeAndIdOf(row.createdAt, row.user.id),
    );
    const invitationPage = keysetResult(invitations, limit, toInvitation, (row) => timeAndIdOf(row.createdAt, row.id));
    const next =
      memberPage.next || invitationPage.next ? { members: memberPage.next, invitations: invitationPage.next } : null;
    return { members: memberPage.items, invitations: invitationPage.items, next };
  }

  /**
   * Invites an email address; the token (for the link) is returned this once and stored hashed.
   * An earlier open invitation for the same address is replaced.
   * @throws conflict when a member already has that email
   */
  async invite(
    workspaceId: string,
    request: { email: string; role: WorkspaceRole; invitedById: string },
    now: Date = new Date(),
  ): Promise<{ invitation: WorkspaceInvitation; token: string }> {
    const email = request.email.toLowerCase();
    const token = randomBytes(32).toString("base64url");
    const row = await this.prisma.$transaction(async (tx) => {
      const member = await tx.workspaceMember.findFirst({
        where: { workspaceId, user: { email: { equals: email, mode: "insensitive" } } },
        select: { userId: true },
      });
      if (member)
        throw new TrellisError(
          "conflict",
          `${email} is already a member of this workspace: change their role instead.`,
        );
      await tx.workspaceInvitation.deleteMany({ where: { workspaceId, email, acceptedAt: null } });
      return tx.workspaceInvitation.create({
        data: {
          workspaceId,
          email,
          role: request.role,
          tokenHash: hashInvitationToken(token),
          invitedById: request.invitedById,
          expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
        },
        select: INVITATION_COLUMNS,
      });
    });
    return { token, invitation: toInvitation(row) };
  }

  /** The open invitation a link's token names, or null (unknown, accepted, expired or revoked: all alike). */
  async openInvitation(token: string, now: Date = new Date()): Promise<OpenInvitation | null> {
    const row = await this.prisma.workspaceInvitation.findUnique({
      where: { tokenHash: hashInvitationToken(token) },
      select: {
        id: true,
        workspaceId: true,
        email: true,
        role: true,
        expiresAt: true,
        acceptedAt: true,
        workspace: { select: { name: true } },
        invitedBy: { select: { name: true } },
      },
    });
    if (!row || row.acceptedAt || row.expiresAt <= now) return null;
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      workspaceName: row.workspace.name,
      email: row.email,
      role: roleOf(row.role),
      invitedBy: row.invitedBy?.name ?? null,
      expiresAt: row.expiresAt,
    };
  }

  /**
   * Makes the user a member with the invitation's role and closes the invitation, once: of two
   * concurrent acceptances one wins. A user who is already a member keeps the role they have.
   * `onJoined` runs in the same transaction when the user became a member (an audit entry commits with the membership).
   * @throws not_found when the invitation is no longer open
   */
  async acceptInvitation(
    invitationId: string,
    userId: string,
    onJoined?: MemberChangeHook<{ workspaceId: string; role: WorkspaceRole }>,
    now: Date = new Date(),
  ): Promise<string> {
    return this.prisma.$transaction(async (tx) => {
      const closed = await tx.workspaceInvitation.updateMany({
        where: { id: invitationId, acceptedAt: null, expiresAt: { gt: now } },
        data: { acceptedAt: now },
      });
      if (closed.count === 0)
        throw new TrellisError(
          "not_found",
          "This invitation is no longer valid: it was used, revoked or has expired. Ask for a new one.",
        );
      const invitation = await tx.workspaceInvitation.findUniqueOrThrow({
        where: { id: invitationId },
        select: { workspaceId: true, role: true },
      });
      const role = roleOf(invitation.role);
      const existing = await tx.workspaceMember.findUnique({
        where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId } },
      });
      if (!existing) {
        await tx.workspaceMember.create({ data: { workspaceId: invitation.workspaceId, userId, role } });
        await onJoined?.(tx, { workspaceId: invitation.workspaceId, role });
      }
      return invitation.workspaceId;
    });
  }

  /** @throws not_found for an unknown or closed invitation of this workspace */
  async revokeInvitation(workspaceId: string, invitationId: string): Promise<void> {
    const { count } = await this.prisma.workspaceInvitation.deleteMany({
      where: { id: invitationId, workspaceId, acceptedAt: null },
    });
    if (count === 0) throw new NotFoundError("Invitation", invitationId);
  }

  /**
   * Changes a member's role, as `actor`. Only an owner gives or takes the owner role; the last
   * owner cannot step down. Serialised per workspace with the other member changes, and the
   * actor's role is the one it holds inside that lock, not the one it had when the request began.
   * `onChanged` runs in the same transaction, told the role before.
   * @throws not_found, forbidden, conflict
   */
  async changeRole(
    workspaceId: string,
    userId: string,
    role: WorkspaceRole,
    actor: { userId: string },
    onChanged?: MemberChangeHook<{ member: WorkspaceMember; before: WorkspaceRole }>,
  ): Promise<WorkspaceMember> {
    return this.prisma.$transaction(async (tx) => {
      const actorRole = await lockWorkspaceMembers(tx, workspaceId, actor.userId);
      if (!roleAtLeast(actorRole, "admin")) {
        throw new TrellisError(
          "forbidden",
          `Your role in this workspace (${actorRole}) cannot change roles: it needs admin or above.`,
        );
      }
      const member = await tx.workspaceMember.findUnique({
        where: { workspaceId_userId: { workspaceId, userId } },
        select: { role: true, createdAt: true, user: { select: { id: true, name: true, email: true } } },
      });
      if (!member) throw new NotFoundError("Member", userId);
      const current = roleOf(member.role);
      if ((current === "owner" || role === "owner") && actorRole !== "owner") {
        throw new TrellisError("forbidden", "Only an owner can make someone an owner or change an owner's role.");
      }
      if (current === "owner" && role !== "owner")
        await assertAnotherOwner(tx, workspaceId, userId, "change the role of");
      await tx.workspaceMember.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role } });
      const changed: WorkspaceMember = {
        userId,
        name: member.user.name,
        email: member.user.email,
        role,
        joinedAt: member.createdAt.toISOString(),
      };
      await onChanged?.(tx, { member: changed, before: current });
      return changed;
    });
  }

  /**
   * Removes a member (or the actor, leaving). Admins remove anyone but an owner, only an owner
   * removes an owner, and the last owner cannot leave; serialised per workspace as changeRole is.
   * The member's API keys for this workspace are revoked with the membership, and a member removed
   * by someone else is signed out of every session at once (a session acts in all of a person's
   * workspaces; leaving keeps one's own). `onRemoved` runs in the same transaction, told who was
   * removed and what ended.
   * @throws not_found, forbidden, conflict
   */
  async removeMember(
    workspaceId: string,
    userId: string,
    actor: { userId: string },
    onRemoved?: MemberChangeHook<{
      name: string;
      email: string;
      role: WorkspaceRole;
      keysRevoked: number;
      sessionsEnded: number;
    }>,
  ): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const actorRole = await lockWorkspaceMembers(tx, workspaceId, actor.userId);
      if (userId !== actor.userId && !roleAtLeast(actorRole, "admin")) {
        throw new TrellisError(
          "forbidden",
          `Your role in this workspace (${actorRole}) cannot remove members: it needs admin or above.`,
        );
      }
      const member = await tx.workspaceMember.findUnique({
        where: { workspaceId_userId: { workspaceId, userId } },
        select: { role: true, user: { select: { name: true, email: true } } },
      });
      if (!member) throw new NotFoundError("Member", userId);
      if (roleOf(member.role) === "owner") {
        if (actorRole !== "owner") throw new TrellisError("forbidden", "Only an owner can remove an owner.");
        await assertAnotherOwner(tx, workspaceId, userId, "remove");
      }
      await tx.workspaceMember.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
      const keys = await tx.apiKey.updateMany({
        where: { workspaceId, userId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      const sessions = userId === actor.userId ? { count: 0 } : await tx.session.deleteMany({ where: { userId } });
      await onRemoved?.(tx, {
        ...member.user,
        role: roleOf(member.role),
        keysRevoked: keys.count,
        sessionsEnded: sessions.count,
      });
    });
  }
}
