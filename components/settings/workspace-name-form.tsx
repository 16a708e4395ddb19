"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api, WORKSPACE_NAME_MAX_LENGTH, type WorkspaceSummary } from "@/contract";
import { errorText } from "./format";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";

/** Renames the workspace (admins and owners); the page and the switcher show the new name at once. */
export function WorkspaceNameForm({ workspace }: { workspace: WorkspaceSummary }) {
  const router = useRouter();
  const [name, setName] = useState(workspace.name);
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const unchanged = name.trim() === workspace.name || !name.trim();

  async function rename() {
    setMessage(null);
    setPending(true);
    try {
      const renamed = await api.workspaces.rename(workspace.id, { name: name.trim() });
      setMessage({ text: `Renamed to “${renamed.name}”.`, failed: false });
      // The workspace's name comes from the server page: fetch it again.
      router.refresh();
    } catch (failure) {
      setMessage({ text: `Could not rename the workspace: ${errorText(failure)}`, failed: true });
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3"
      aria-label="Rename the workspace"
      onSubmit={(event) => {
        event.preventDefault();
        if (!unchanged) void rename();
      }}
    >
      <FormField label="Workspace name" className="min-w-56 flex-1">
        <input
          className={FIELD_INPUT_CLASS}
          maxLength={WORKSPACE_NAME_MAX_LENGTH}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </FormField>
      <button type="submit" className="btn-secondary" disabled={pending || unchanged}>
        {pending ? "Renaming…" : "Rename"}
      </button>
      {message && (
        <p
          role={message.failed ? "alert" : "status"}
          className={`w-full text-xs ${message.failed ? "text-red-700" : "text-emerald-700"}`}
        >
          {message.text}
        </p>
      )}
    </form>
  );
}
