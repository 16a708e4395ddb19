"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  api,
  roleAtLeast,
  WORKSPACE_ROLE_DESCRIPTIONS,
  WORKSPACE_ROLES,
  type WorkspaceInvitation,
  type WorkspaceMember,
  type WorkspaceRole,
} from "@/contract";
import { roleLabel } from "@/components/auth/roles";
import { forgetWorkspace, loadAfresh } from "@/components/auth/workspace-cookie";
import { useActingWorkspace } from "@/components/auth/workspace-context";
import { PageHeader } from "@/components/ui/page-header";
import { errorText } from "./format";
import { QueryState } from "./query-state";
import { InvitationTable } from "./invitation-table";
import { InviteForm } from "./invite-form";
import { MemberSessionsPanel } from "./member-sessions-panel";
import { MemberTable } from "./member-table";
import { WorkspaceNameForm } from "./workspace-name-form";

function RoleLegend() {
  return (
    <dl
      className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs text-slate-600"
      aria-label="What each role may do"
    >
      {WORKSPACE_ROLES.map((role) => (
        <div key={role} className="contents">
          <dt className="font-medium text-slate-700">{roleLabel(role)}</dt>
          <dd>{WORKSPACE_ROLE_DESCRIPTIONS[role]}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Settings › Members: who is in the workspace and with which role. Admins and owners invite,
 * change roles, remove members and revoke invitations; everyone else reads, and anyone can leave.
 */
export function MembersPage() {
  const { user, workspace } = useActingWorkspace();
  const router = useRouter();
  const queryClient = useQueryClient();
  const membersKey = ["workspace-members", workspace.id];
  const listing = useQuery({ queryKey: membersKey, queryFn: () => api.workspaces.members(workspace.id) });
  const refetch = () => queryClient.invalidateQueries({ queryKey: membersKey });
  const [busyUserId, setBusyUserId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sessionsOf, setSessionsOf] = useState<WorkspaceMember | null>(null);
  const admin = roleAtLeast(workspace.role, "admin");

  async function act(member: WorkspaceMember, action: () => Promise<unknown>, failure: string): Promise<boolean> {
    setError(null);
    setBusyUserId(member.userId);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(`${failure}: ${errorText(caught)}`);
      return false;
    } finally {
      setBusyUserId(null);
      void refetch();
    }
  }

  async function changeRole(member: WorkspaceMember, role: WorkspaceRole) {
    const done = await act(
      member,
      () => api.workspaces.changeRole(workspace.id, member.userId, { role }),
      `Could not change ${member.email}'s role`,
    );
    // A new role of one's own changes what every page offers.
    if (done && member.userId === user.userId) router.refresh();
  }

  async function remove(member: WorkspaceMember) {
    const me = member.userId === user.userId;
    const question = me
      ? `Leave "${workspace.name}"? You lose access to its workflows, knowledge bases and secrets until someone invites you again.`
      : `Remove ${member.name || member.email} from "${workspace.name}"? They lose access at once.`;
    if (!window.confirm(question)) return;
    const done = await act(
      member,
      () => api.workspaces.removeMember(workspace.id, member.userId),
      me ? "Could not leave the workspace" : `Could not remove ${member.email}`,
    );
    if (done && me) {
      forgetWorkspace();
      loadAfresh("/");
    }
  }

  async function revoke(invitation: WorkspaceInvitation) {
    if (!window.confirm(`Revoke the invitation for ${invitation.email}? Its link stops working at once.`)) return;
    setError(null);
    try {
      await api.workspaces.revokeInvitation(workspace.id, invitation.id);
    } catch (caught) {
      setError(`Could not revoke the invitation: ${errorText(caught)}`);
    } finally {
      void refetch();
    }
  }

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          Everyone in <strong>{workspace.name}</strong> and their role. You are <strong>{workspace.role}</strong> here:{" "}
          {WORKSPACE_ROLE_DESCRIPTIONS[workspace.role]}.
        </p>
      </PageHeader>

      {admin && <WorkspaceNameForm key={workspace.name} workspace={workspace} />}
      {admin && <InviteForm workspaceId={workspace.id} myRole={workspace.role} onInvited={() => void refetch()} />}

      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="members-error">
          {error}
        </p>
      )}

      <QueryState query={listing} what="the members">
        {(data) => (
          <>
            <MemberTable
              members={data.members}
              myUserId={user.userId}
              myRole={workspace.role}
              busyUserId={busyUserId}
              onChangeRole={(member, role) => void changeRole(member, role)}
              onRemove={(member) => void remove(member)}
              onShowSessions={setSessionsOf}
            />
            {sessionsOf && (
              <MemberSessionsPanel
                key={sessionsOf.userId}
                workspaceId={workspace.id}
                member={sessionsOf}
                onClose={() => setSessionsOf(null)}
              />
            )}
            <section className="space-y-2">
              <h2 className="text-sm font-semibold text-slate-700">Open invitations</h2>
              <InvitationTable
                invitations={data.invitations}
                canRevoke={admin}
                onRevoke={(invitation) => void revoke(invitation)}
              />
            </section>
          </>
        )}
      </QueryState>

      <section className="space-y-2">
        <h2 className="text-sm font-semibold text-slate-700">Roles</h2>
        <RoleLegend />
      </section>
    </main>
  );
}
