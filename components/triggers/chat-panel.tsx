"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, ExternalLink, MessageCircle } from "lucide-react";
import { useState, type FormEvent } from "react";
import {
  api,
  CHAT_PASSWORD_MIN_LENGTH,
  type ChatSettings,
  type ChatSettingsRequest,
  type NoChatSettings,
} from "@/contract";
import { useCanEdit } from "@/components/auth/workspace-context";

const settingsKey = (workflowId: string) => ["workflow", workflowId, "chat"] as const;

function ChatLink({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(url);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div className="flex items-center gap-2">
      <input
        readOnly
        value={url}
        aria-label="Public chat link"
        className="min-w-0 flex-1 rounded border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs"
        data-testid="chat-link"
      />
      <button type="button" className="btn-secondary" onClick={() => void copy()} data-testid="chat-link-copy">
        <Copy size={14} aria-hidden /> {copied ? "Copied" : "Copy"}
      </button>
      <a className="btn-secondary" href={url} target="_blank" rel="noopener noreferrer" data-testid="chat-link-open">
        <ExternalLink size={14} aria-hidden /> Open
      </a>
    </div>
  );
}

function SettingsForm({
  workflowId,
  current,
  editable,
}: {
  workflowId: string;
  current: ChatSettings | NoChatSettings;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(current.chatId ? current.title : "");
  const [password, setPassword] = useState("");
  const save = useMutation({
    mutationFn: (request: ChatSettingsRequest) => api.chat.configure(workflowId, request),
    onSuccess: (saved) => {
      setPassword("");
      queryClient.setQueryData(settingsKey(workflowId), saved);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled: current.enabled, title, ...(password ? { password } : {}) });
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={current.enabled}
          disabled={!editable || save.isPending}
          onChange={(event) => save.mutate({ enabled: event.target.checked, title })}
          data-testid="chat-enabled"
        />
        Public chat {current.enabled ? "on" : "off"}
      </label>
      <label className="block text-sm">
        <span className="text-slate-700">Title</span>
        <input
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5"
          value={title}
          maxLength={200}
          disabled={!editable}
          placeholder="Shown at the top of the chat page"
          onChange={(event) => setTitle(event.target.value)}
          data-testid="chat-title-input"
        />
      </label>
      <label className="block text-sm">
        <span className="text-slate-700">
          Password{" "}
          {current.chatId && current.hasPassword
            ? "(set: type a new one to replace it)"
            : "(optional: anyone with the link may chat without one)"}
        </span>
        <input
          type="password"
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5"
          value={password}
          minLength={CHAT_PASSWORD_MIN_LENGTH}
          disabled={!editable}
          autoComplete="new-password"
          onChange={(event) => setPassword(event.target.value)}
          data-testid="chat-password-input"
        />
      </label>
      {editable && (
        <div className="flex gap-2">
          <button type="submit" className="btn-primary" disabled={save.isPending} data-testid="chat-save">
            Save
          </button>
          {current.chatId && current.hasPassword && (
            <button
              type="button"
              className="btn-secondary"
              onClick={() => save.mutate({ enabled: current.enabled, title, password: null })}
              data-testid="chat-remove-password"
            >
              Remove password
            </button>
          )}
        </div>
      )}
      {save.error && (
        <p role="alert" className="text-sm text-red-600">
          {save.error.message}
        </p>
      )}
    </form>
  );
}

/**
 * A workflow's public chat: turn it on or off, give it a title and an optional password, and copy
 * or open its link. The chat runs the workflow's active deployment, so until there is one the
 * panel says to deploy first. Self-contained: it needs only the workflow's id (and a workspace).
 */
export function ChatPanel({ workflowId }: { workflowId: string }) {
  const editable = useCanEdit();
  const settings = useQuery({ queryKey: settingsKey(workflowId), queryFn: () => api.chat.settings(workflowId) });
  return (
    <section
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="Public chat"
      data-testid="chat-panel"
    >
      <h2 className="flex items-center gap-2 text-sm font-semibold">
        <MessageCircle size={16} aria-hidden /> Public chat
      </h2>
      <p className="text-xs text-slate-500">
        A page where anyone with the link can talk to this workflow; each message is a run of its active deployment.
      </p>
      {settings.isPending && <p className="text-sm text-slate-400">Loading…</p>}
      {settings.error && (
        <p role="alert" className="text-sm text-red-600">
          {settings.error.message}
        </p>
      )}
      {settings.data && (
        <>
          {!settings.data.deployed && (
            <p
              className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              data-testid="chat-not-deployed"
            >
              This workflow is not deployed yet. Deploy it first: the chat answers with the active deployment, and every
              message is refused until there is one.
            </p>
          )}
          {/* Keyed by what is stored, so a saved title (or a new chat) starts the form afresh. */}
          <SettingsForm
            key={settings.data.chatId ? `${settings.data.chatId}:${settings.data.title}` : "new"}
            workflowId={workflowId}
            current={settings.data}
            editable={editable}
          />
          {settings.data.chatId && settings.data.enabled && <ChatLink url={settings.data.url} />}
        </>
      )}
    </section>
  );
}
