"use client";

import { LogOut, UserMinus } from "lucide-react";
import { roleAtLeast, WORKSPACE_ROLES, type WorkspaceMember, type WorkspaceRole } from "@/contract";
import { roleLabel } from "@/components/auth/roles";
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

interface MemberTableProps {
  members: WorkspaceMember[];
  /** The signed-in user: their row offers Leave. */
  myUserId: string;
  myRole: WorkspaceRole;
  /** A member whose change is on its way: their controls wait. */
  busyUserId: string | null;
  onChangeRole(member: WorkspaceMember, role: WorkspaceRole): void;
  onRemove(member: WorkspaceMember): void;
}

/** Who is in the workspace. Admins and owners change roles and remove members; everyone can leave. */
export function MemberTable({ members, myUserId, myRole, busyUserId, onChangeRole, onRemove }: MemberTableProps) {
  const roles = assignableRoles(myRole);
  return (
    <table className="w-full overflow-hidden rounded border border-slate-200 bg-white text-sm" aria-label="Members">
      <thead className="bg-slate-50 text-left text-xs text-slate-500">
        <tr>
          <th className="px-3 py-2 font-medium">Name</th>
          <th className="px-3 py-2 font-medium">Email</th>
          <th className="px-3 py-2 font-medium">Role</th>
          <th className="px-3 py-2 font-medium">Joined</th>
          <th className="px-3 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {members.map((member) => {
          const me = member.userId === myUserId;
          const manages = managesRole(myRole, member.role);
          const busy = busyUserId === member.userId;
          return (
            <tr key={member.userId} className="border-t border-slate-200" data-testid="member-row" data-user-id={member.userId}>
              <td className="px-3 py-2 font-medium">
                {displayName(member)}
                {me && <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>}
              </td>
              <td className="px-3 py-2 text-slate-600">{member.email}</td>
              <td className="px-3 py-2">
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
              </td>
              <td className="px-3 py-2 text-slate-600">{dayText(member.joinedAt)}</td>
              <td className="px-3 py-2 text-right">
                {me ? (
                  <button type="button" className="btn-secondary" aria-label="Leave workspace" disabled={busy} onClick={() => onRemove(member)}>
                    <LogOut size={14} aria-hidden /> Leave
                  </button>
                ) : manages ? (
                  <button type="button" className="btn-secondary" aria-label={`Remove ${displayName(member)}`} disabled={busy} onClick={() => onRemove(member)}>
                    <UserMinus size={14} aria-hidden /> Remove
                  </button>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
