"use client";

import { Check, CircleAlert, Loader2, PencilLine } from "lucide-react";
import { saveStatus, useEditorStore } from "../store";

const LABELS = {
  saved: "Saved",
  saving: "Saving…",
  unsaved: "Unsaved changes",
  error: "Not saved",
  conflict: "Conflict",
} as const;

export function SaveIndicator() {
  const save = useEditorStore((state) => state.save);
  const status = saveStatus(save);
  const Icon =
    status === "saved" ? Check : status === "saving" ? Loader2 : status === "unsaved" ? PencilLine : CircleAlert;
  const colour =
    status === "saved"
      ? "text-emerald-700"
      : status === "saving" || status === "unsaved"
        ? "text-slate-600"
        : "text-red-700";
  return (
    <span
      className={`flex items-center gap-1 text-xs ${colour}`}
      data-testid="save-status"
      data-status={status}
      role="status"
      title={save.error ?? undefined}
    >
      <Icon className={`h-3.5 w-3.5 ${status === "saving" ? "animate-spin" : ""}`} aria-hidden />
      {LABELS[status]}
      {status === "error" && save.error && <span className="max-w-80 truncate">: {save.error}</span>}
    </span>
  );
}
