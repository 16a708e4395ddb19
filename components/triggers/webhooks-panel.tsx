"use client";

import { Webhook } from "lucide-react";
import { useState } from "react";
import type { CreateWebhookRequest } from "@/contract";
import { useCanEdit } from "@/components/auth/workspace-context";
import { CopyButton } from "@/components/ui/copy-button";
import { CreateWebhookForm } from "./create-webhook-form";
import { useOrigin, useStartInputs, useWebhooks } from "./use-webhooks";
import { WebhookCard } from "./webhook-card";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The secret of the hook just made: shown this once. */
function NewSecret({ secret, onDone }: { secret: string; onDone(): void }) {
  return (
    <section
      className="space-y-2 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm"
      aria-label="New webhook secret"
      data-testid="new-webhook-secret"
    >
      <p className="font-medium text-emerald-900">
        Copy the secret now: <strong>you will not see it again.</strong> Callers sign each body with it.
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 truncate rounded border border-emerald-200 bg-white px-2 py-1 font-mono text-xs"
          data-testid="new-webhook-secret-value"
        >
          {secret}
        </code>
        <CopyButton text={secret} label="Copy the secret" />
      </div>
      <button type="button" className="btn-secondary" onClick={onDone}>
        Done
      </button>
    </section>
  );
}

/**
 * A workflow's webhooks, self-contained (give it the workflow's id): each hook's full URL with a
 * copy button and a curl example, its last deliveries with links to their runs, creating a hook
 * (optionally signed, optionally waiting for the run) and deleting one. Viewers see, editors change.
 */
export function WebhooksPanel({ workflowId }: { workflowId: string }) {
  const canEdit = useCanEdit();
  const origin = useOrigin();
  const inputs = useStartInputs(workflowId);
  const { hooks, create, remove } = useWebhooks(workflowId);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function createHook(request: CreateWebhookRequest): Promise<boolean> {
    setError(null);
    try {
      await create.mutateAsync(request);
      setSecret(request.secret ?? null);
      return true;
    } catch (failure) {
      setError(`Could not create the webhook: ${errorText(failure)}`);
      return false;
    }
  }

  async function deleteHook(id: string) {
    if (!window.confirm("Delete this webhook? Calls to its URL will be answered 404 from now on.")) return;
    setError(null);
    try {
      await remove.mutateAsync(id);
    } catch (failure) {
      setError(`Could not delete the webhook: ${errorText(failure)}`);
    }
  }

  return (
    <section className="space-y-4" aria-label="Webhooks" data-testid="webhooks-panel">
      <header className="flex items-center gap-2">
        <Webhook size={18} className="text-indigo-600" aria-hidden />
        <h2 className="text-lg font-semibold">Webhooks</h2>
      </header>
      <p className="text-sm text-slate-600">
        A webhook is a URL other services POST to: each call starts a run of the workflow&apos;s{" "}
        <strong>active deployment</strong> (until the workflow is deployed, calls are refused with 409). It needs no
        credentials, so keep the URL private, or require a signature.
      </p>
      {canEdit && <CreateWebhookForm pending={create.isPending} onCreate={createHook} />}
      {secret && <NewSecret secret={secret} onDone={() => setSecret(null)} />}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {hooks.isError && (
        <p role="alert" className="flex items-center gap-2 text-sm text-red-700">
          Could not load the webhooks: {errorText(hooks.error)}
          <button type="button" className="btn-secondary" onClick={() => void hooks.refetch()}>
            Retry
          </button>
        </p>
      )}
      {hooks.data === undefined && !hooks.isError && <p className="text-sm text-slate-500">Loading…</p>}
      {hooks.data?.length === 0 && <p className="text-sm text-slate-500">No webhooks yet.</p>}
      <ul className="space-y-3">
        {hooks.data?.map((hook) => (
          <WebhookCard
            key={hook.id}
            hook={hook}
            origin={origin}
            inputs={inputs}
            canEdit={canEdit}
            onDelete={() => void deleteHook(hook.id)}
          />
        ))}
      </ul>
    </section>
  );
}
