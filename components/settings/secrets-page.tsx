"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { api, type SecretListEntry } from "@/contract";
import { useActingWorkspace, useCanEdit } from "@/components/auth/workspace-context";
import { DataCell, DataRow, DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { dateText, errorText } from "./format";
import { QueryState } from "./query-state";
import { SecretForm } from "./secret-form";

/** Provider keys a secret may hold (providers/provider-table.ts names them all); base URLs are the operator's alone. */
const PROVIDER_SETTING_EXAMPLES = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
];

const COLUMNS: DataColumn[] = [{ header: "Name" }, { header: "Updated" }, { header: "Actions", hidden: true }];

function SecretTable({
  secrets,
  editable,
  onReplace,
  onDelete,
}: {
  secrets: SecretListEntry[];
  editable: boolean;
  onReplace(name: string): void;
  onDelete(name: string): void;
}) {
  return (
    <DataTable label="Secrets" columns={COLUMNS}>
      {secrets.map((secret) => (
        <DataRow key={secret.name} data-testid="secret-row" data-name={secret.name}>
          <DataCell>
            <code className="font-mono text-xs font-medium">{secret.name}</code>
          </DataCell>
          <DataCell className="text-slate-600">{dateText(secret.updatedAt)}</DataCell>
          <DataCell className="space-x-2 text-right whitespace-nowrap">
            {editable && (
              <>
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Replace the value of ${secret.name}`}
                  onClick={() => onReplace(secret.name)}
                >
                  <Pencil size={14} aria-hidden /> Replace
                </button>
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={`Delete ${secret.name}`}
                  onClick={() => onDelete(secret.name)}
                >
                  <Trash2 size={14} aria-hidden /> Delete
                </button>
              </>
            )}
          </DataCell>
        </DataRow>
      ))}
    </DataTable>
  );
}

/**
 * Settings › Secrets: the workspace's stored secrets by name. Values go in and never come back:
 * the API answers names and dates only. Viewers see the names.
 */
export function SecretsPage() {
  const { workspace } = useActingWorkspace();
  const editable = useCanEdit();
  const queryClient = useQueryClient();
  const secretsKey = ["secrets", workspace.id];
  const secrets = useQuery({ queryKey: secretsKey, queryFn: api.secrets.list });
  const names = useMemo(() => new Set((secrets.data ?? []).map((secret) => secret.name)), [secrets.data]);
  const [chosen, setChosen] = useState<{ name: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const refetch = () => queryClient.invalidateQueries({ queryKey: secretsKey });

  async function save(name: string, value: string): Promise<boolean> {
    setError(null);
    setSaved(null);
    const replaced = names.has(name);
    try {
      await api.secrets.put(name, value);
      setSaved(`${replaced ? "Replaced" : "Saved"} ${name}. Its value is not shown again.`);
      return true;
    } catch (caught) {
      setError(`Could not save ${name}: ${errorText(caught)}`);
      return false;
    } finally {
      void refetch();
    }
  }

  async function remove(name: string) {
    if (!window.confirm(`Delete the secret ${name}? Workflows that read {{${name}}} fail from their next run on.`))
      return;
    setError(null);
    setSaved(null);
    try {
      await api.secrets.remove(name);
    } catch (caught) {
      setError(`Could not delete ${name}: ${errorText(caught)}`);
    } finally {
      void refetch();
    }
  }

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          Secrets of <strong>{workspace.name}</strong>, stored encrypted. <code>{"{{NAME}}"}</code> in a block&apos;s
          config reads the secret NAME when a workflow runs, and run output masks its value.
        </p>
        <p>
          A secret named like a provider key ({PROVIDER_SETTING_EXAMPLES.join(", ")}, …) is that provider&apos;s key for
          this workspace&apos;s runs, from the next run on, sent to the server the operator set for it. A
          provider&apos;s server (OPENAI_BASE_URL, …) is the operator&apos;s: a secret named like one is not used, and
          that provider&apos;s models are refused in this workspace until it is deleted.
        </p>
        {!editable && <p>Your role here ({workspace.role}) shows the names only.</p>}
      </PageHeader>

      {editable && <SecretForm existing={names} chosen={chosen} onSave={save} />}
      {saved && (
        <p role="status" className="text-sm text-emerald-700" data-testid="secret-saved">
          {saved}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}

      <QueryState query={secrets} what="the secrets" isEmpty={(list) => list.length === 0} empty="No secrets yet.">
        {(list) => (
          <SecretTable
            secrets={list}
            editable={editable}
            onReplace={(name) => setChosen({ name })}
            onDelete={(name) => void remove(name)}
          />
        )}
      </QueryState>
    </main>
  );
}
