"use client";

import { X } from "lucide-react";
import type { WorkspaceInvitation } from "@/contract";
import { roleLabel } from "@/components/auth/roles";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { dateText } from "./format";

const COLUMNS: DataColumn[] = [
  { header: "Email" },
  { header: "Role" },
  { header: "Invited by" },
  { header: "Expires" },
  { header: "Actions", hidden: true },
];

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
    <DataTable label="Open invitations" columns={COLUMNS}>
      {invitations.map((invitation) => (
        <DataRow key={invitation.id} data-testid="invitation-row">
          <DataCell className="font-medium">{invitation.email}</DataCell>
          <DataCell>{roleLabel(invitation.role)}</DataCell>
          <DataCell className="text-slate-600">{invitation.invitedBy ?? "—"}</DataCell>
          <DataCell className="text-slate-600">{dateText(invitation.expiresAt)}</DataCell>
          <DataCell className="text-right">
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
          </DataCell>
        </DataRow>
      ))}
    </DataTable>
  );
}
