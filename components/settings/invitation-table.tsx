"use client";

import { X } from "lucide-react";
import type { WorkspaceInvitation } from "@/contract";
import { roleLabel } from "@/components/auth/roles";
import { dateText } from "./format";

/** Invitations not accepted yet; admins and owners may revoke them (the link stops working at once). */
export function InvitationTable({
  invitations,
  canRevoke,
  onRevoke,
}: {
  invitations: WorkspaceInvitation[];
  canRevoke: boolean;
  onRevoke(invitation: WorkspaceInvitation): void;
}) {
  if (invitations.length === 0) return <p className="text-sm text-slate-500">No open invitations.</p>;
  return (
    <table className="w-full overflow-hidden rounded border border-slate-200 bg-white text-sm" aria-label="Open invitations">
      <thead className="bg-slate-50 text-left text-xs text-slate-500">
        <tr>
          <th className="px-3 py-2 font-medium">Email</th>
          <th className="px-3 py-2 font-medium">Role</th>
          <th className="px-3 py-2 font-medium">Invited by</th>
          <th className="px-3 py-2 font-medium">Expires</th>
          <th className="px-3 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {invitations.map((invitation) => (
          <tr key={invitation.id} className="border-t border-slate-200" data-testid="invitation-row">
            <td className="px-3 py-2 font-medium">{invitation.email}</td>
            <td className="px-3 py-2">{roleLabel(invitation.role)}</td>
            <td className="px-3 py-2 text-slate-600">{invitation.invitedBy ?? "—"}</td>
            <td className="px-3 py-2 text-slate-600">{dateText(invitation.expiresAt)}</td>
            <td className="px-3 py-2 text-right">
              {canRevoke && (
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Revoke the invitation for ${invitation.email}`}
                  onClick={() => onRevoke(invitation)}
                >
                  <X size={14} aria-hidden /> Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
