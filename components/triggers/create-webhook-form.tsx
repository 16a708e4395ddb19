"use client";

import { Plus, RefreshCw } from "lucide-react";
import { useState } from "react";
import { WEBHOOK_SECRET_MAX_LENGTH, type CreateWebhookRequest } from "@/contract";
import { FormField } from "@/components/ui/form-field";

/** A random secret (192 bits, hex) made in the browser: the server stores it encrypted and never sends it back. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** New hook: whether callers must sign their bodies (with a secret, generated or pasted) and whether the call waits for the run. */
export function CreateWebhookForm({
  pending,
  onCreate,
}: {
  pending: boolean;
  onCreate(request: CreateWebhookRequest): Promise<boolean>;
}) {
  const [signed, setSigned] = useState(false);
  const [secret, setSecret] = useState("");
  const [wait, setWait] = useState(false);
  const missingSecret = signed && secret.trim() === "";
  return (
    <form
      className="space-y-3 rounded border border-slate-200 bg-white p-3 text-sm"
      aria-label="New webhook"
      onSubmit={(event) => {
        event.preventDefault();
        if (missingSecret) return;
        void onCreate({ wait, ...(signed ? { secret } : {}) }).then((done) => {
          if (!done) return;
          setSigned(false);
          setSecret("");
          setWait(false);
        });
      }}
    >
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={signed}
          data-testid="webhook-signed"
          onChange={(event) => {
            setSigned(event.target.checked);
            if (event.target.checked && !secret) setSecret(generateSecret());
          }}
        />
        Require a signature (HMAC-SHA256 of the body with a secret)
      </label>
      {signed && (
        <div className="flex items-end gap-2 pl-6">
          <FormField label="Secret (shown once, after creating)" className="min-w-0 flex-1">
            <input
              className="rounded border border-slate-300 px-2 py-1 font-mono text-xs text-slate-900"
              value={secret}
              maxLength={WEBHOOK_SECRET_MAX_LENGTH}
              autoComplete="off"
              spellCheck={false}
              data-testid="webhook-secret-input"
              onChange={(event) => setSecret(event.target.value)}
            />
          </FormField>
          <button type="button" className="btn-secondary" onClick={() => setSecret(generateSecret())}>
            <RefreshCw size={14} aria-hidden /> New secret
          </button>
        </div>
      )}
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={wait}
          data-testid="webhook-wait"
          onChange={(event) => setWait(event.target.checked)}
        />
        Wait for the result (answer 200 with the finished run instead of 202 with its id)
      </label>
      <button type="submit" className="btn-primary" disabled={pending || missingSecret} data-testid="create-webhook">
        <Plus size={14} aria-hidden /> Create webhook
      </button>
    </form>
  );
}
