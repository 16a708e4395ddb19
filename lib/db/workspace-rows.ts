import "server-only";
import { isWorkspaceRole, type WorkspaceInvitation, type WorkspaceRole, type WorkspaceSummary } from "@/contract";
import { TrellisError } from "@/executor";
import type { TimeAndId } from "./keyset";

/** What `{ role }` columns hold; anything else stored there is a bug worth failing loudly on. */
export function roleOf(value: string): WorkspaceRole {
  if (!isWorkspaceRole(value))
    throw new TrellisError("internal_error", `stored role "${value}" is not a workspace role`);
  return value;
}

export const INVITATION_COLUMNS = {
  id: true,
  email: true,
  role: true,
  createdAt: true,
  expiresAt: true,
  invitedBy: { select: { name: true } },
} as const;

export function toInvitation(row: {
  id: string;
  email: string;
  role: string;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: { name: string } | null;
}): WorkspaceInvitation {
  return {
    id: row.id,
    email: row.email,
    role: roleOf(row.role),
    invitedBy: row.invitedBy?.name ?? null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** A membership as the user's list of workspaces reads it. */
export const MEMBERSHIP_COLUMNS = {
  role: true,
  createdAt: true,
  workspace: { select: { id: true, name: true, createdAt: true } },
} as const;

export function toWorkspaceSummary(row: {
  role: string;
  workspace: { id: string; name: string; createdAt: Date };
}): WorkspaceSummary {
  return {
    id: row.workspace.id,
    name: row.workspace.name,
    role: roleOf(row.role),
    createdAt: row.workspace.createdAt.toISOString(),
  };
}

/**
 * Where a page of a workspace's members and invitations ends: one position in each list (members
 * by joining time and user id, invitations newest first), null for a list already shown whole.
 */
export interface MembersPosition {
  members: TimeAndId | null;
  invitations: TimeAndId | null;
}
