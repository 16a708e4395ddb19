"use client";

import { LogOut, MonitorSmartphone, UserMinus } from "lucide-react";
import { roleAtLeast, WORKSPACE_ROLES, type WorkspaceMember, type WorkspaceRole } from "@/contract";
import { roleLabel } from "@/components/auth/roles";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { dayText } from "./format";

/** The roles `actor` may give: an owner any, an admin any but owner, others none. */
export function assignableRoles(actor: WorkspaceRole): WorkspaceRole[] {
  if (actor === "owner") return [...WORKSPACE_ROLES];
  if (actor === "admin") return WORKSPACE_ROLES.filter((role) => role !== "owner");
  return [];
}

/** Whether `actor` may change or remove a member with `role` (only owners touch owners). */
export function managesRole(actor: WorkspaceRole, role: WorkspaceRole): boolean {
  return roleAtLeast(actor, "admin") && (role !== "owner" || actor === "owner");
}

const displayName = (member: WorkspaceMember) => member.name || member.email;

const COLUMNS: DataColumn[] = [
  { header: "Name" },
  { header: "Email" },
  { header: "Role" },
  { header: "Joined" },
  { header: "Actions", hidden: true },
];

interface MemberTableProps {
  members: WorkspaceMember[];
  /** The signed-in user: their row offers Leave. */
  myUserId: string;
  myRole: WorkspaceRole;
  /** A member whose change is on its way: their controls wait. */
  busyUserId: string | null;
  onChangeRole(member: WorkspaceMember, role: WorkspaceRole): void;
  onRemove(member: WorkspaceMember): void;
  /** Shows a member's sessions (admins and owners, for the members they manage). */
  onShowSessions(member: WorkspaceMember): void;
}

/** Who is in the workspace. Admins and owners change roles and remove members; everyone can leave. */
export function MemberTable({
  members,
  myUserId,
  myRole,
  busyUserId,
  onChangeRole,
  onRemove,
  onShowSessions,
}: MemberTableProps) {
  const roles = assignableRoles(myRole);
  return (
    <DataTable label="Members" columns={COLUMNS}>
      {members.map((member) => {
        const me = member.userId === myUserId;
        const manages = managesRole(myRole, member.role);
        const busy = busyUserId === member.userId;
        return (
          <DataRow key={member.userId} data-testid="member-row" data-user-id={member.userId}>
            <DataCell className="font-medium">
              {displayName(member)}
              {me && <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>}
            </DataCell>
            <DataCell className="text-slate-600">{member.email}</DataCell>
            <DataCell>
              {manages ? (
                <select
                  className="rounded border border-slate-300 px-1 py-0.5 text-sm"
                  aria-label={`Role of ${displayName(member)}`}
                  value={member.role}
                  disabled={busy}
                  onChange={(event) => onChangeRole(member, event.target.value as WorkspaceRole)}
                >
                  {(roles.includes(member.role) ? roles : [member.role, ...roles]).map((role) => (
                    <option key={role} value={role}>
                      {roleLabel(role)}
                    </option>
                  ))}
                </select>
              ) : (
                <span data-testid="member-role">{roleLabel(member.role)}</span>
              )}
            </DataCell>
            <DataCell className="text-slate-600">{dayText(member.joinedAt)}</DataCell>
            <DataCell className="space-x-2 text-right whitespace-nowrap">
              {manages && !me && (
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Sessions of ${displayName(member)}`}
                  onClick={() => onShowSessions(member)}
                >
                  <MonitorSmartphone size={14} aria-hidden /> Sessions
                </button>
              )}
              {me ? (
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label="Leave workspace"
                  disabled={busy}
                  onClick={() => onRemove(member)}
                >
                  <LogOut size={14} aria-hidden /> Leave
                </button>
              ) : manages ? (
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Remove ${displayName(member)}`}
                  disabled={busy}
                  onClick={() => onRemove(member)}
                >
                  <UserMinus size={14} aria-hidden /> Remove
                </button>
              ) : null}
            </DataCell>
          </DataRow>
        );
      })}
    </DataTable>
  );
}
