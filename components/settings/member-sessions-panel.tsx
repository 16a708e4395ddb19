"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LogOut, X } from "lucide-react";
import { useState } from "react";
import { api, type MemberSession, type WorkspaceMember } from "@/contract";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { dateText, errorText } from "./format";
import { QueryState } from "./query-state";

const COLUMNS: DataColumn[] = [
  { header: "Signed in" },
  { header: "Last active" },
  { header: "Address" },
  { header: "Browser" },
  { header: "Actions", hidden: true },
];

/**
 * A member's signed-in sessions, for the admin who opened them from Members: where and when each
 * began and was last used, and a button to end one or all at once (the browser is signed out of
 * every workspace, on every server process).
 */
export function MemberSessionsPanel({
  workspaceId,
  member,
  onClose,
}: {
  workspaceId: string;
  member: WorkspaceMember;
  onClose(): void;
}) {
  const queryClient = useQueryClient();
  const key = ["member-sessions", workspaceId, member.userId];
  const sessions = useQuery({
    queryKey: key,
    queryFn: async () => (await api.workspaces.sessions(workspaceId, member.userId)).sessions,
  });
  const [error, setError] = useState<string | null>(null);
  const who = member.name || member.email;

  async function end(session: MemberSession | null) {
    const question = session
      ? `Sign ${who} out of the browser at ${session.address ?? "an unknown address"}?`
      : `Sign ${who} out of every browser?`;
    if (!window.confirm(question)) return;
    setError(null);
    try {
      if (session) await api.workspaces.revokeSession(workspaceId, member.userId, session.id);
      else await api.workspaces.revokeSessions(workspaceId, member.userId);
    } catch (caught) {
      setError(`Could not end the session: ${errorText(caught)}`);
    } finally {
      void queryClient.invalidateQueries({ queryKey: key });
    }
  }

  return (
    <section className="space-y-2 rounded border border-slate-200 p-4" aria-label={`Sessions of ${who}`}>
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold text-slate-700">Sessions of {who}</h2>
        <button type="button" className="btn-secondary ml-auto" onClick={() => void end(null)}>
          <LogOut size={14} aria-hidden /> End all
        </button>
        <button type="button" className="btn-secondary" aria-label="Close sessions" onClick={onClose}>
          <X size={14} aria-hidden />
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <QueryState
        query={sessions}
        what="the sessions"
        isEmpty={(list) => list.length === 0}
        empty="Not signed in anywhere."
      >
        {(list) => (
          <DataTable label={`Sessions of ${who}`} columns={COLUMNS}>
            {list.map((session) => (
              <DataRow key={session.id} data-testid="session-row">
                <DataCell className="text-slate-600">{dateText(session.createdAt)}</DataCell>
                <DataCell className="text-slate-600">{dateText(session.lastActiveAt)}</DataCell>
                <DataCell className="font-mono text-xs">{session.address ?? ""}</DataCell>
                <DataCell className="max-w-xs truncate text-xs text-slate-600" title={session.userAgent ?? ""}>
                  {session.userAgent ?? ""}
                </DataCell>
                <DataCell className="text-right">
                  <button type="button" className="btn-secondary" onClick={() => void end(session)}>
                    End
                  </button>
                </DataCell>
              </DataRow>
            ))}
          </DataTable>
        )}
      </QueryState>
    </section>
  );
}
