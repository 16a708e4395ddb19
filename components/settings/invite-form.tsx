"use client";

import { Check, Copy, UserPlus } from "lucide-react";
import { useId, useState } from "react";
import { api, WORKSPACE_ROLE_DESCRIPTIONS, type CreatedInvitation, type WorkspaceRole } from "@/contract";
import { roleLabel } from "@/components/auth/roles";
import { dateText, errorText } from "./format";
import { assignableRoles } from "./member-table";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";

/** The link of the invitation just made: shown this once, in a field to copy from. */
function NewInvitationLink({ invitation, onDone }: { invitation: CreatedInvitation; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const fieldId = useId();
  return (
    <section
      className="space-y-2 rounded border border-emerald-300 bg-emerald-50 p-4 text-sm"
      aria-label="New invitation"
      data-testid="new-invitation"
    >
      <p className="font-medium text-emerald-900">
        Invitation for {invitation.email} as {invitation.role} created.
      </p>
      <label htmlFor={fieldId} className="block text-xs text-emerald-900">
        Invitation link
      </label>
      <div className="flex items-center gap-2">
        <input
          id={fieldId}
          readOnly
          className="min-w-0 flex-1 rounded border border-emerald-200 bg-white px-2 py-1 font-mono text-xs text-slate-900"
          value={invitation.link}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="invitation-link"
        />
        <button
          type="button"
          className="btn-secondary"
          onClick={() =>
            void navigator.clipboard.writeText(invitation.link).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />} {copied ? "Copied" : "Copy link"}
        </button>
      </div>
      <p className="text-xs text-emerald-900">
        Send this link to the person; it is shown once and expires {dateText(invitation.expiresAt)}. No email is sent.
      </p>
      <button type="button" className="btn-secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

/** Invite by email and role (admins and owners); the answer's link is what the invitee opens. */
export function InviteForm({
  workspaceId,
  myRole,
  onInvited,
}: {
  workspaceId: string;
  myRole: WorkspaceRole;
  onInvited(): void;
}) {
  const roles = assignableRoles(myRole);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<WorkspaceRole>("editor");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);

  async function invite() {
    setError(null);
    setPending(true);
    try {
      setCreated(await api.workspaces.invite(workspaceId, { email: email.trim(), role }));
      setEmail("");
      onInvited();
    } catch (failure) {
      setError(`Could not invite ${email.trim()}: ${errorText(failure)}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-3">
      <form
        className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3"
        aria-label="Invite a member"
        onSubmit={(event) => {
          event.preventDefault();
          if (email.trim()) void invite();
        }}
      >
        <FormField label="Email" className="min-w-56 flex-1">
          <input
            type="email"
            required
            autoComplete="off"
            className={FIELD_INPUT_CLASS}
            placeholder="name@example.com"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </FormField>
        <FormField label="Role">
          <select
            className={FIELD_INPUT_CLASS}
            value={role}
            onChange={(event) => setRole(event.target.value as WorkspaceRole)}
            aria-describedby="invite-role-description"
          >
            {roles.map((choice) => (
              <option key={choice} value={choice}>
                {roleLabel(choice)}
              </option>
            ))}
          </select>
        </FormField>
        <button type="submit" className="btn-primary" disabled={pending || !email.trim()}>
          <UserPlus size={14} aria-hidden /> {pending ? "Inviting…" : "Invite"}
        </button>
        <p id="invite-role-description" className="w-full text-xs text-slate-500">
          {roleLabel(role)}: {WORKSPACE_ROLE_DESCRIPTIONS[role]}.
        </p>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700" data-testid="invite-error">
          {error}
        </p>
      )}
      {created && <NewInvitationLink invitation={created} onDone={() => setCreated(null)} />}
    </div>
  );
}
