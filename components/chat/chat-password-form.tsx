"use client";

import { Lock } from "lucide-react";
import { useState, type FormEvent } from "react";

/** Asks for the chat's password; the server remembers this browser once it is right. */
export function ChatPasswordForm({ title, onUnlock }: { title: string; onUnlock(password: string): Promise<void> }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onUnlock(password);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={submit}
      className="mx-auto mt-24 w-full max-w-sm space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h1 className="flex items-center gap-2 text-lg font-semibold">
        <Lock size={18} aria-hidden /> {title || "Chat"}
      </h1>
      <p className="text-sm text-slate-600">This chat needs a password.</p>
      <label className="block text-sm">
        <span className="text-slate-700">Password</span>
        <input
          type="password"
          required
          autoFocus
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="chat-password"
        />
      </label>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary" disabled={busy || !password} data-testid="chat-unlock">
        Enter
      </button>
    </form>
  );
}
