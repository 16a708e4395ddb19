"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, PASSWORD_MAX_LENGTH, PASSWORD_RULE, api, passwordProblem, type InvitationPreview } from "@/contract";
import { AuthField, FormError } from "./auth-card";
import { messageOf } from "./messages";
import { sessionKey } from "./user-menu";
import { openWorkspace } from "./workspace-cookie";

/**
 * For an invitee without an account: name and password create it (for the invited email), then
 * the page signs in with them and opens the workspace joined.
 */
export function AcceptInvitationForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const session = useQuery({ queryKey: sessionKey, queryFn: api.auth.session, staleTime: 0 });
  const signedInAs = session.data?.email ?? null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const problem = passwordProblem(password);
    if (problem) return setError(problem);
    setError(null);
    setPending(true);
    let workspaceId: string;
    try {
      workspaceId = (await api.auth.acceptInvitation(token, { name, password })).workspaceId;
    } catch (failure) {
      // The server's words: "an account exists already", "no longer valid", a password rule.
      setError(failure instanceof ApiError ? failure.message : messageOf(failure, "Could not create the account"));
      setPending(false);
      return;
    }
    try {
      await api.auth.signIn({ email: invitation.email, password });
    } catch (failure) {
      setError(
        `Your account was created and you joined ${invitation.workspaceName}, but signing in failed (${messageOf(failure, "Could not sign in")}). Sign in with your email and password.`,
      );
      setPending(false);
      return;
    }
    openWorkspace(workspaceId, "/");
  }

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Create your account">
      <FormError message={error} />
      {signedInAs && (
        <p className="mb-4 text-xs text-slate-600" data-testid="signed-in-as-other">
          You are signed in as {signedInAs}: creating this account signs you in as {invitation.email} instead.
        </p>
      )}
      <label className="mb-4 block text-sm">
        <span className="mb-1 block font-medium text-slate-700">Email</span>
        <input
          className="w-full rounded border border-slate-200 bg-slate-50 px-2 py-1.5 text-slate-600"
          name="email"
          type="email"
          autoComplete="username"
          value={invitation.email}
          readOnly
        />
      </label>
      <AuthField label="Name" name="name" autoComplete="name" autoFocus maxLength={100} />
      <AuthField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE}
        maxLength={PASSWORD_MAX_LENGTH}
      />
      <button type="submit" className="btn-primary w-full justify-center" disabled={pending}>
        {pending ? "Creating your account…" : `Create account and join`}
      </button>
    </form>
  );
}
