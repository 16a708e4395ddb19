"use client";

import { useState, type FormEvent } from "react";
import { api, WORKSPACE_NAME_MAX_LENGTH, type WorkspaceSummary } from "@/contract";
import { messageOf } from "./messages";

/** Name a new workspace; the caller becomes its owner. `onCreated` decides where to go next. */
export function CreateWorkspaceForm({
  onCreated,
  onCancel,
}: {
  onCreated(workspace: WorkspaceSummary): void;
  onCancel?(): void;
}) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError("Give the workspace a name.");
    setError(null);
    setPending(true);
    try {
      onCreated(await api.workspaces.create({ name: trimmed }));
    } catch (failure) {
      setError(messageOf(failure, "Could not create the workspace"));
      setPending(false);
    }
  }

  return (
    <form className="space-y-2" aria-label="New workspace" onSubmit={(event) => void submit(event)}>
      <label className="block text-xs text-slate-600">
        Workspace name
        <input
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none"
          value={name}
          maxLength={WORKSPACE_NAME_MAX_LENGTH}
          autoFocus
          onChange={(event) => setName(event.target.value)}
        />
      </label>
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
      <div className="flex items-center gap-2">
        <button type="submit" className="btn-primary" disabled={pending || !name.trim()}>
          {pending ? "Creating…" : "Create workspace"}
        </button>
        {onCancel && (
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
