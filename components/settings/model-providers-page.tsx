"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "@/contract";
import { useActingWorkspace, useCanEdit } from "@/components/auth/workspace-context";
import { MODEL_LIST_KEY } from "@/components/prices/use-model-list";
import { PageHeader } from "@/components/ui/page-header";
import { errorText } from "./format";
import { ProviderCard } from "./provider-card";
import { QueryState } from "./query-state";

/**
 * Settings › Model providers: each provider with where its key comes from for this workspace, a
 * field to set the workspace's own key (the secret named like the key's variable, which runs read
 * before the server's environment) and "Test connection". Keys go in and never come back.
 */
export function ModelProvidersPage() {
  const { workspace } = useActingWorkspace();
  const editable = useCanEdit();
  const queryClient = useQueryClient();
  const providersKey = ["providers", workspace.id];
  const providers = useQuery({ queryKey: providersKey, queryFn: api.providers.list });
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const refetch = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: providersKey }),
      // The model picker's "no key" marks and the editor's list of what to fix read the model list.
      queryClient.invalidateQueries({ queryKey: MODEL_LIST_KEY }),
    ]);

  async function saveKey(label: string, variable: string, value: string): Promise<boolean> {
    setMessage(null);
    try {
      await api.secrets.put(variable, value);
      setMessage({ ok: true, text: `Saved the ${label} key (the secret ${variable}). It is not shown again.` });
      return true;
    } catch (caught) {
      setMessage({ ok: false, text: `Could not save the ${label} key: ${errorText(caught)}` });
      return false;
    } finally {
      await refetch();
    }
  }

  async function removeKey(label: string, variable: string) {
    if (!window.confirm(`Remove this workspace's ${label} key? Runs use the server's key, if it has one.`)) return;
    setMessage(null);
    try {
      await api.secrets.remove(variable);
      setMessage({ ok: true, text: `Removed the workspace's ${label} key.` });
    } catch (caught) {
      setMessage({ ok: false, text: `Could not remove the ${label} key: ${errorText(caught)}` });
    } finally {
      await refetch();
    }
  }

  return (
    <main className="mx-auto max-w-4xl space-y-4 px-6 py-10">
      <PageHeader>
        <p>
          The model providers of <strong>{workspace.name}</strong>. A run uses the workspace&apos;s own key first (kept
          as the secret named like the key&apos;s variable, on Settings › Secrets too), then the server&apos;s. A key
          applies from the next run on and is never shown again.
        </p>
        {!editable && <p>Your role here ({workspace.role}) shows where the keys come from only.</p>}
      </PageHeader>
      {message && (
        <p
          role={message.ok ? "status" : "alert"}
          className={`text-sm ${message.ok ? "text-emerald-700" : "text-red-700"}`}
          data-testid="provider-message"
        >
          {message.text}
        </p>
      )}
      <QueryState query={providers} what="the model providers">
        {(list) => (
          <div className="space-y-3">
            {list.map((provider) => (
              <ProviderCard
                key={provider.id}
                provider={provider}
                editable={editable}
                onSaveKey={(value) => saveKey(provider.label, provider.keyVariable!, value)}
                onRemoveKey={() => removeKey(provider.label, provider.keyVariable!)}
                onTest={() => api.providers.test(provider.id)}
              />
            ))}
          </div>
        )}
      </QueryState>
    </main>
  );
}
