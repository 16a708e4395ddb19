"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Copy, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { api, API_KEY_NAME_MAX_LENGTH, type ApiKeySummary, type CreatedApiKey } from "@/contract";
import { useWorkspace } from "@/components/auth/workspace-context";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";
import { PageHeader } from "@/components/ui/page-header";
import { dateText, errorText } from "./format";
import { QueryState } from "./query-state";

const apiKeysKey = ["api-keys"] as const;

const COLUMNS: DataColumn[] = [
  { header: "Name" },
  { header: "Key" },
  { header: "Created" },
  { header: "Last used" },
  { header: "Expires" },
  { header: "Actions", hidden: true },
];

/** Today in the browser's time zone, as an <input type="date"> value. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

/** The key just made: shown this once, with a Copy button. */
function NewKey({ created, onDone }: { created: CreatedApiKey; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section
      className="space-y-2 rounded border border-emerald-300 bg-emerald-50 p-4 text-sm"
      data-testid="new-api-key"
      aria-label="New API key"
    >
      <p className="font-medium text-emerald-900">
        Copy the key for “{created.name}” now: <strong>you will not see it again.</strong>
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 truncate rounded border border-emerald-200 bg-white px-2 py-1 font-mono text-xs"
          data-testid="new-api-key-value"
        >
          {created.key}
        </code>
        <button
          type="button"
          className="btn-secondary"
          onClick={() =>
            void navigator.clipboard.writeText(created.key).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />} {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <p className="text-xs text-emerald-900">
        Send it as <code>Authorization: Bearer {created.prefix}…</code>. Only a hash of it is stored.
      </p>
      <button type="button" className="btn-secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

function CreateKeyForm({
  pending,
  onCreate,
}: {
  pending: boolean;
  onCreate(input: { name: string; expiresOn: string }): Promise<boolean>;
}) {
  const [name, setName] = useState("");
  const [expiresOn, setExpiresOn] = useState("");
  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3"
      aria-label="New API key"
      onSubmit={(event) => {
        event.preventDefault();
        if (!name.trim()) return;
        void onCreate({ name: name.trim(), expiresOn }).then((done) => {
          if (!done) return;
          setName("");
          setExpiresOn("");
        });
      }}
    >
      <FormField label="Name" className="min-w-48 flex-1">
        <input
          className={FIELD_INPUT_CLASS}
          placeholder="e.g. CI deploy"
          maxLength={API_KEY_NAME_MAX_LENGTH}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </FormField>
      <FormField label="Expires (optional)">
        <input
          type="date"
          className={FIELD_INPUT_CLASS}
          min={today()}
          value={expiresOn}
          onChange={(event) => setExpiresOn(event.target.value)}
        />
      </FormField>
      <button type="submit" className="btn-primary" disabled={pending || !name.trim()}>
        <Plus size={14} aria-hidden /> Create key
      </button>
    </form>
  );
}

/** `loadedAt`: when the list was fetched, the time "expired" is judged at. */
function KeyRow({ apiKey, loadedAt, onRevoke }: { apiKey: ApiKeySummary; loadedAt: number; onRevoke(): void }) {
  const expired = apiKey.expiresAt !== null && Date.parse(apiKey.expiresAt) <= loadedAt;
  return (
    <DataRow data-testid="api-key-row">
      <DataCell className="font-medium">{apiKey.name}</DataCell>
      <DataCell>
        <code className="font-mono text-xs">{apiKey.prefix}…</code>
      </DataCell>
      <DataCell className="text-slate-600">{dateText(apiKey.createdAt, "")}</DataCell>
      <DataCell className="text-slate-600">{dateText(apiKey.lastUsedAt, "Never")}</DataCell>
      <DataCell className={expired ? "text-red-700" : "text-slate-600"}>
        {dateText(apiKey.expiresAt, "Never")}
        {expired ? " (expired)" : ""}
      </DataCell>
      <DataCell className="text-right">
        <button type="button" className="btn-secondary" aria-label={`Revoke ${apiKey.name}`} onClick={onRevoke}>
          <Trash2 size={14} aria-hidden /> Revoke
        </button>
      </DataCell>
    </DataRow>
  );
}

/** Settings › API keys: the signed-in user's keys, a form for a new one, revoke with confirmation. */
export function ApiKeysPage() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: api.apiKeys.list });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: apiKeysKey });
  const create = useMutation({ mutationFn: api.apiKeys.create, onSettled: invalidate });
  const revoke = useMutation({ mutationFn: api.apiKeys.revoke, onSettled: invalidate });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const acting = useWorkspace();

  async function createKey({ name, expiresOn }: { name: string; expiresOn: string }): Promise<boolean> {
    setError(null);
    try {
      // The end of the chosen day, in the browser's time zone.
      const expiresAt = expiresOn ? new Date(`${expiresOn}T23:59:59`).toISOString() : undefined;
      setCreated(await create.mutateAsync(expiresAt ? { name, expiresAt } : { name }));
      return true;
    } catch (failure) {
      setError(`Could not create the key: ${errorText(failure)}`);
      return false;
    }
  }

  async function revokeKey(apiKey: ApiKeySummary) {
    if (!window.confirm(`Revoke "${apiKey.name}" (${apiKey.prefix}…)? Scripts using it stop working at once.`)) return;
    setError(null);
    try {
      await revoke.mutateAsync(apiKey.id);
      if (created?.id === apiKey.id) setCreated(null);
    } catch (failure) {
      setError(`Could not revoke the key: ${errorText(failure)}`);
    }
  }

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          Scripts call the API with <code>Authorization: Bearer &lt;key&gt;</code>. A key acts as you
          {acting ? (
            <>
              {" "}
              in <strong>{acting.workspace.name}</strong>, with your role there ({acting.workspace.role}),
            </>
          ) : null}{" "}
          until you revoke it or it expires.
        </p>
      </PageHeader>

      <CreateKeyForm pending={create.isPending} onCreate={createKey} />
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}

      <QueryState query={keys} what="the keys" isEmpty={(list) => list.length === 0} empty="No API keys yet.">
        {(list) => (
          <DataTable label="API keys" columns={COLUMNS}>
            {list.map((apiKey) => (
              <KeyRow
                key={apiKey.id}
                apiKey={apiKey}
                loadedAt={keys.dataUpdatedAt}
                onRevoke={() => void revokeKey(apiKey)}
              />
            ))}
          </DataTable>
        )}
      </QueryState>
    </main>
  );
}
