"use client";

import { PlugZap, Save, Trash2 } from "lucide-react";
import { useState } from "react";
import type { ProviderConnectionCheck, ProviderKeySource, ProviderStatusEntry } from "@/contract";
import { FIELD_INPUT_CLASS } from "@/components/ui/form-field";

const SOURCE_TEXT: Record<ProviderKeySource, { text: string; className: string }> = {
  workspace: { text: "Key: this workspace's secret", className: "bg-emerald-100 text-emerald-900" },
  environment: { text: "Key: the server's environment", className: "bg-sky-100 text-sky-900" },
  missing: { text: "No key", className: "bg-amber-100 text-amber-900" },
  "not-needed": { text: "No key needed", className: "bg-slate-100 text-slate-700" },
};

interface ProviderCardProps {
  provider: ProviderStatusEntry;
  editable: boolean;
  /** Stores the key as the workspace secret `provider.keyVariable`; resolves whether it was saved. */
  onSaveKey(value: string): Promise<boolean>;
  onRemoveKey(): Promise<void>;
  onTest(): Promise<ProviderConnectionCheck>;
}

/**
 * One provider on Settings › Model providers: where its key comes from, a field to set the
 * workspace's own (masked, emptied once saved; a stored key is never shown again), and
 * "Test connection", which makes one free call with the key a run would use.
 */
export function ProviderCard({ provider, editable, onSaveKey, onRemoveKey, onTest }: ProviderCardProps) {
  const [value, setValue] = useState("");
  const [pending, setPending] = useState<"save" | "test" | null>(null);
  const [check, setCheck] = useState<ProviderConnectionCheck | null>(null);
  const source = SOURCE_TEXT[provider.keySource];
  const keyFieldId = `provider-key-${provider.id}`;

  async function save() {
    if (!value) return;
    setPending("save");
    setCheck(null);
    if (await onSaveKey(value)) setValue("");
    setPending(null);
  }
  async function test() {
    setPending("test");
    setCheck(null);
    try {
      setCheck(await onTest());
    } catch (caught) {
      setCheck({ ok: false, message: caught instanceof Error ? caught.message : String(caught), durationMs: 0 });
    } finally {
      setPending(null);
    }
  }

  return (
    <section
      id={provider.id}
      className="scroll-mt-16 space-y-2 rounded border border-slate-200 bg-white p-4 target:border-indigo-400 target:ring-2 target:ring-indigo-200"
      aria-labelledby={`provider-title-${provider.id}`}
      data-testid="provider-card"
      data-provider={provider.id}
      data-key-source={provider.keySource}
    >
      <div className="flex flex-wrap items-center gap-2">
        {/* eslint-disable-next-line @next/next/no-img-element -- a 16 px SVG: next/image adds nothing */}
        <img src={provider.logo} alt="" width={16} height={16} />
        <h2 id={`provider-title-${provider.id}`} className="font-medium text-slate-900">
          {provider.label}
        </h2>
        <span
          className={`rounded px-1.5 py-0.5 text-xs font-medium ${source.className}`}
          data-testid="provider-key-source"
        >
          {source.text}
        </span>
        {provider.keyVariable && <code className="font-mono text-xs text-slate-500">{provider.keyVariable}</code>}
      </div>
      {provider.missingSetting && provider.missingSetting !== provider.keyVariable && (
        <p className="text-xs text-amber-800" data-testid="provider-missing-setting">
          Needs {provider.missingSetting}, set by the server&apos;s operator in its environment.
        </p>
      )}
      {editable && provider.keyVariable && (
        <form
          className="flex flex-wrap items-center gap-2"
          aria-label={`${provider.label} key`}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <label htmlFor={keyFieldId} className="text-sm text-slate-700">
            {provider.keySource === "workspace" ? "Replace the workspace's key" : "Workspace key"}
          </label>
          <input
            id={keyFieldId}
            type="password"
            autoComplete="off"
            data-1p-ignore
            data-lpignore="true"
            spellCheck={false}
            className={`${FIELD_INPUT_CLASS} min-w-56 flex-1 font-mono`}
            placeholder={
              provider.keySource === "environment" ? "Overrides the server's key for this workspace" : "Paste the key"
            }
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
          <button type="submit" className="btn-primary" disabled={!value || pending !== null}>
            <Save size={14} aria-hidden /> {pending === "save" ? "Saving…" : "Save key"}
          </button>
          {provider.keySource === "workspace" && (
            <button
              type="button"
              className="btn-secondary"
              disabled={pending !== null}
              onClick={() => void onRemoveKey()}
            >
              <Trash2 size={14} aria-hidden /> Remove the workspace&apos;s key
            </button>
          )}
        </form>
      )}
      {editable && provider.testable && (
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className="btn-secondary" disabled={pending !== null} onClick={() => void test()}>
            <PlugZap size={14} aria-hidden /> {pending === "test" ? "Testing…" : "Test connection"}
          </button>
          {check && (
            <span
              role="status"
              className={`text-sm ${check.ok ? "text-emerald-700" : "text-red-700"}`}
              data-testid="provider-test-result"
              data-ok={check.ok}
            >
              {check.message}
              {check.status !== undefined && check.ok ? ` (${check.durationMs} ms)` : ""}
            </span>
          )}
        </div>
      )}
    </section>
  );
}
