"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, type SsoSettings, type SsoSettingsRequest } from "@/contract";
import { useActingWorkspace } from "@/components/auth/workspace-context";
import { CopyButton } from "@/components/ui/copy-button";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";
import { PageHeader } from "@/components/ui/page-header";
import { errorText } from "./format";
import { QueryState } from "./query-state";

const JOIN_ROLES = ["viewer", "editor", "admin"] as const;

/** `group=role` lines, as the form writes them. */
function groupRolesText(roles: Record<string, string>): string {
  return Object.entries(roles)
    .map(([group, role]) => `${group}=${role}`)
    .join("\n");
}

function groupRolesOf(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const at = line.lastIndexOf("=");
        return at < 0 ? [line, ""] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
      }),
  );
}

/**
 * `saved` lives in the page: a save changes the provider's `updatedAt`, which remounts this form with the stored
 * values, and the confirmation must outlast that.
 */
function SsoForm({
  provider,
  saved,
  onSaved,
}: {
  provider: SsoSettings | null;
  saved: string | null;
  onSaved(notice: string | null): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const fromEnvironment = provider?.source === "environment";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const secret = String(form.get("clientSecret") ?? "");
    const request: SsoSettingsRequest = {
      name: text("name"),
      issuer: text("issuer"),
      clientId: text("clientId"),
      ...(secret ? { clientSecret: secret } : {}),
      allowedDomains: text("allowedDomains")
        .split(",")
        .map((domain) => domain.trim())
        .filter(Boolean),
      defaultRole: text("defaultRole") as SsoSettingsRequest["defaultRole"],
      ...(text("groupsClaim") ? { groupsClaim: text("groupsClaim") } : {}),
      groupRoles: groupRolesOf(String(form.get("groupRoles") ?? "")) as SsoSettingsRequest["groupRoles"],
      passwordSignIn: form.get("passwordSignIn") === "on",
    };
    setError(null);
    onSaved(null);
    setPending(true);
    try {
      await api.sso.put(request);
      onSaved("Saved. The sign-in page offers this provider from now on.");
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="space-y-4" aria-label="Single sign-on provider" onSubmit={(event) => void submit(event)}>
      <fieldset disabled={fromEnvironment || pending} className="grid gap-3 sm:grid-cols-2">
        <FormField label="Button name (Sign in with …)">
          <input name="name" required className={FIELD_INPUT_CLASS} defaultValue={provider?.name ?? ""} />
        </FormField>
        <FormField label="Issuer URL">
          <input
            name="issuer"
            required
            type="url"
            className={FIELD_INPUT_CLASS}
            placeholder="https://sso.example.com/realms/acme"
            defaultValue={provider?.issuer ?? ""}
          />
        </FormField>
        <FormField label="Client id">
          <input name="clientId" required className={FIELD_INPUT_CLASS} defaultValue={provider?.clientId ?? ""} />
        </FormField>
        <FormField label={provider?.hasClientSecret ? "Client secret (stored; type to replace)" : "Client secret"}>
          <input name="clientSecret" type="password" autoComplete="off" className={FIELD_INPUT_CLASS} />
        </FormField>
        <FormField label="Allowed email domains (comma-separated; empty: any)">
          <input
            name="allowedDomains"
            className={FIELD_INPUT_CLASS}
            placeholder="example.com"
            defaultValue={provider?.allowedDomains.join(", ") ?? ""}
          />
        </FormField>
        <FormField label="Role of people joining">
          <select name="defaultRole" className={FIELD_INPUT_CLASS} defaultValue={provider?.defaultRole ?? "viewer"}>
            {JOIN_ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Groups claim (optional)">
          <input
            name="groupsClaim"
            className={FIELD_INPUT_CLASS}
            placeholder="groups"
            defaultValue={provider?.groupsClaim ?? ""}
          />
        </FormField>
        <FormField label="Group roles, one group=role a line (optional)">
          <textarea
            name="groupRoles"
            rows={3}
            className={FIELD_INPUT_CLASS}
            placeholder="trellis-admins=admin"
            defaultValue={groupRolesText(provider?.groupRoles ?? {})}
          />
        </FormField>
        <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
          <input name="passwordSignIn" type="checkbox" defaultChecked={provider?.passwordSignIn ?? true} />
          Members may still sign in with a password (owners always may)
        </label>
      </fieldset>
      {provider && (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          Register this redirect URI at the provider: <code className="font-mono text-xs">{provider.redirectUri}</code>
          <CopyButton text={provider.redirectUri} label="Copy the redirect URI" />
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {saved && (
        <p role="status" className="text-sm text-emerald-700">
          {saved}
        </p>
      )}
      {!fromEnvironment && (
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Checking the provider…" : "Save"}
        </button>
      )}
    </form>
  );
}

/**
 * Settings › Single sign-on: the workspace's OpenID Connect provider, for its owners. Saving reads
 * the provider's discovery document first; a wrong issuer is told here and nothing is stored.
 */
export function SsoSettingsPage() {
  const { workspace } = useActingWorkspace();
  const queryClient = useQueryClient();
  const owner = workspace.role === "owner";
  const key = ["sso", workspace.id];
  const [saved, setSaved] = useState<string | null>(null);
  const settings = useQuery({ queryKey: key, queryFn: async () => (await api.sso.get()).provider, enabled: owner });
  if (!owner)
    return (
      <main className="mx-auto max-w-4xl px-6 py-10">
        <p className="text-sm text-slate-600">Single sign-on is set by the workspace&apos;s owners.</p>
      </main>
    );
  return (
    <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          People sign in to <strong>{workspace.name}</strong> through your identity provider (Keycloak, Entra ID, Okta,
          Google Workspace, Authentik: any OpenID Connect provider). They are linked by the provider&apos;s subject, not
          their email, and join this workspace with the role below (or their groups&apos;) the first time.
        </p>
      </PageHeader>
      <QueryState query={settings} what="the single sign-on settings">
        {(provider) => (
          <>
            {provider?.source === "environment" && (
              <p className="text-sm text-slate-600">
                Set by the server&apos;s TRELLIS_OIDC_* variables: change it there.
              </p>
            )}
            <SsoForm
              key={provider?.updatedAt ?? "new"}
              provider={provider}
              saved={saved}
              onSaved={(notice) => {
                setSaved(notice);
                if (notice) void queryClient.invalidateQueries({ queryKey: key });
              }}
            />
          </>
        )}
      </QueryState>
    </main>
  );
}
