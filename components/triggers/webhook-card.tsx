"use client";

import { KeyRound, Timer, Trash2 } from "lucide-react";
import type { WebhookSummary } from "@/contract";
import { CopyButton } from "@/components/ui/copy-button";
import { curlExample, exampleBody, type ExampleInput } from "./curl-example";
import { WebhookDeliveries } from "./webhook-deliveries";
import { formatDateTime } from "@/components/ui/date-time";

/** One hook: its full URL to copy, how it answers, a curl example, its deliveries, and delete (editors). */
export function WebhookCard({
  hook,
  origin,
  inputs,
  canEdit,
  onDelete,
}: {
  hook: WebhookSummary;
  origin: string;
  inputs: readonly ExampleInput[];
  canEdit: boolean;
  onDelete(): void;
}) {
  const url = `${origin}${hook.url}`;
  const example = curlExample({ url, body: exampleBody(inputs), signed: hook.hasSecret });
  return (
    <li
      className="space-y-3 rounded border border-slate-200 bg-white p-3"
      data-testid="webhook"
      data-webhook-id={hook.id}
    >
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 truncate rounded border border-slate-200 bg-slate-50 px-2 py-1 font-mono text-xs"
          data-testid="webhook-url"
        >
          {url}
        </code>
        <CopyButton text={url} label="Copy the webhook URL" testId="copy-webhook-url" />
        {canEdit && (
          <button type="button" className="btn-secondary" aria-label="Delete this webhook" onClick={onDelete}>
            <Trash2 size={14} aria-hidden /> Delete
          </button>
        )}
      </div>
      <p className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
        <span className="flex items-center gap-1" data-testid="webhook-signature-mode">
          <KeyRound size={12} aria-hidden />
          {hook.hasSecret ? "Signed: x-trellis-signature required" : "No signature required"}
        </span>
        <span className="flex items-center gap-1">
          <Timer size={12} aria-hidden />
          {hook.wait ? "Answers the finished run (200)" : "Answers at once with the run id (202)"}
        </span>
        <span>Created {formatDateTime(hook.createdAt)}</span>
      </p>
      <details className="text-xs">
        <summary className="cursor-pointer text-slate-700">Call it with curl</summary>
        <pre
          className="mt-2 overflow-x-auto rounded bg-slate-900 p-2 font-mono text-[11px] text-slate-100 dark:bg-slate-50 dark:text-slate-800"
          data-testid="webhook-curl"
        >
          {hook.hasSecret
            ? `# First: export WEBHOOK_SECRET=<the secret shown once when the hook was created>\n${example}`
            : example}
        </pre>
        <p className="mt-1 text-slate-600">
          JSON fields (or form fields) become the start inputs by name; a repeated <code>idempotency-key</code> within
          24 hours answers the first run&apos;s id and starts nothing.
        </p>
      </details>
      <section aria-label="Deliveries" className="space-y-1">
        <h3 className="text-xs font-semibold text-slate-700">Last deliveries</h3>
        <WebhookDeliveries webhookId={hook.id} workflowId={hook.workflowId} />
      </section>
    </li>
  );
}
