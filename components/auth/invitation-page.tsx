"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ApiError, api, type InvitationPreview } from "@/contract";
import { AcceptInvitationForm } from "./accept-invitation-form";
import { AuthCard, FormError } from "./auth-card";
import { messageOf } from "./messages";
import { sessionKey } from "./user-menu";
import { loadAfresh, openWorkspace } from "./workspace-cookie";
import { formatDateTime } from "@/components/ui/date-time";

/** Who invited whom, to what and until when. */
function InvitationSummary({ invitation }: { invitation: InvitationPreview }) {
  return (
    <>
      {invitation.invitedBy ? `${invitation.invitedBy} invited ` : "You are invited as "}
      <strong>{invitation.email}</strong> to <strong>{invitation.workspaceName}</strong> as {invitation.role}. The
      invitation expires {formatDateTime(invitation.expiresAt)}.
    </>
  );
}

/** The signed-in invitee joins with one click; anyone else is asked to sign in as the invitee. */
function JoinAsExistingUser({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const session = useQuery({ queryKey: sessionKey, queryFn: api.auth.session, staleTime: 0 });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const signInPath = `/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`;

  async function join() {
    setError(null);
    setPending(true);
    try {
      const { workspaceId } = await api.auth.acceptInvitation(token, {});
      openWorkspace(workspaceId, "/");
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : messageOf(failure, "Could not join"));
      setPending(false);
    }
  }

  async function switchAccount() {
    setError(null);
    try {
      await api.auth.signOut();
      loadAfresh(signInPath);
    } catch (failure) {
      setError(messageOf(failure, "Could not sign out"));
    }
  }

  // A signed-out answer cached before signing in (sign-in comes back here) is checked again first.
  if (session.isPending || (session.isFetching && !session.data))
    return <p className="text-sm text-slate-500">Checking who is signed in…</p>;
  const user = session.data ?? null;
  const invitee = user !== null && user.email.toLowerCase() === invitation.email.toLowerCase();
  return (
    <div className="space-y-3">
      <FormError message={error} />
      {invitee ? (
        <button
          type="button"
          className="btn-primary w-full justify-center"
          disabled={pending}
          onClick={() => void join()}
        >
          {pending ? "Joining…" : `Join ${invitation.workspaceName}`}
        </button>
      ) : user ? (
        <>
          <p className="text-sm text-slate-600">
            You are signed in as {user.email}. This invitation is for {invitation.email}.
          </p>
          <button type="button" className="btn-primary w-full justify-center" onClick={() => void switchAccount()}>
            Sign out and sign in as {invitation.email}
          </button>
        </>
      ) : (
        <Link href={signInPath} className="btn-primary w-full justify-center">
          Sign in as {invitation.email} to join
        </Link>
      )}
    </div>
  );
}

/** /invite/:token — public: shows the invitation, then joins (existing account) or creates the account. */
export function InvitationPage({ token }: { token: string }) {
  const invitation = useQuery({
    queryKey: ["invitation", token],
    queryFn: () => api.auth.invitation(token),
    retry: false,
    staleTime: Infinity,
  });

  if (invitation.isPending) {
    return (
      <AuthCard title="Invitation" intro="Checking the invitation link.">
        <p className="text-sm text-slate-500">Loading…</p>
      </AuthCard>
    );
  }
  if (invitation.isError) {
    const invalid = invitation.error instanceof ApiError && invitation.error.status === 404;
    return (
      <AuthCard title="Invitation not valid" intro="This link cannot be used.">
        <p
          role="alert"
          data-testid="invitation-invalid"
          className="mb-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {invalid
            ? "This invitation is no longer valid: it was used, revoked or has expired. Ask the person who invited you for a new link."
            : messageOf(invitation.error, "Could not load the invitation")}
        </p>
        <Link href="/sign-in" className="text-sm text-indigo-600 underline">
          Go to sign-in
        </Link>
      </AuthCard>
    );
  }
  const preview = invitation.data;
  return (
    <AuthCard title={`Join ${preview.workspaceName}`} intro={<InvitationSummary invitation={preview} />}>
      {preview.accountExists ? (
        <JoinAsExistingUser token={token} invitation={preview} />
      ) : (
        <AcceptInvitationForm token={token} invitation={preview} />
      )}
    </AuthCard>
  );
}
