"use client";

import { Copy, Download, Pencil, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRef, useState } from "react";
import type { WorkflowSummary } from "@/contract";
import { formatDateTime } from "@/components/ui/date-time";

interface WorkflowRowProps {
  workflow: WorkflowSummary;
  /** False for a viewer: the row offers export only. */
  canEdit: boolean;
  onRename(name: string): Promise<unknown>;
  onDuplicate(): void;
  onDelete(): void;
  onExport(): void;
}

export function WorkflowRow({ workflow, canEdit, onRename, onDuplicate, onDelete, onExport }: WorkflowRowProps) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(workflow.name);
  // Enter submits and then blurs the input: both would rename, from the same version.
  const submitting = useRef(false);

  async function submitRename() {
    if (submitting.current) return;
    const trimmed = name.trim();
    if (!trimmed || trimmed === workflow.name) {
      setEditing(false);
      setName(workflow.name);
      return;
    }
    submitting.current = true;
    try {
      await onRename(trimmed);
    } finally {
      submitting.current = false;
      setEditing(false);
    }
  }

  return (
    <li
      className="flex items-center gap-3 border-b border-slate-200 px-4 py-3 last:border-none"
      data-testid="workflow-row"
      data-workflow-id={workflow.id}
    >
      <div className="min-w-0 flex-1">
        {editing ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void submitRename();
            }}
          >
            <input
              aria-label="Workflow name"
              className="w-full rounded border border-slate-300 px-2 py-1"
              value={name}
              autoFocus
              onChange={(event) => setName(event.target.value)}
              onBlur={() => void submitRename()}
              onKeyDown={(event) => {
                if (event.key === "Escape") {
                  setName(workflow.name);
                  setEditing(false);
                }
              }}
            />
          </form>
        ) : (
          <Link
            href={`/workflows/${workflow.id}`}
            className="font-medium text-slate-900 hover:text-indigo-600"
            data-testid="workflow-link"
          >
            {workflow.name}
          </Link>
        )}
        <p className="text-xs text-slate-500">
          version {workflow.version} · updated {formatDateTime(workflow.updatedAt)}
        </p>
      </div>
      {canEdit && (
        <>
          <button
            type="button"
            className="icon-btn"
            aria-label={`Rename ${workflow.name}`}
            onClick={() => setEditing(true)}
          >
            <Pencil size={16} />
          </button>
          <button type="button" className="icon-btn" aria-label={`Duplicate ${workflow.name}`} onClick={onDuplicate}>
            <Copy size={16} />
          </button>
        </>
      )}
      <button type="button" className="icon-btn" aria-label={`Export ${workflow.name}`} onClick={onExport}>
        <Download size={16} />
      </button>
      {canEdit && (
        <button
          type="button"
          className="icon-btn text-red-600"
          aria-label={`Delete ${workflow.name}`}
          onClick={onDelete}
        >
          <Trash2 size={16} />
        </button>
      )}
    </li>
  );
}
