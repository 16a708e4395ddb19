"use client";

import { Check, ChevronDown, Plus } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { CreateWorkspaceForm } from "./create-workspace-form";
import { roleLabel } from "./roles";
import { useDismiss } from "./use-dismiss";
import { openWorkspace } from "./workspace-cookie";
import { useWorkspace } from "./workspace-context";

const itemClass = "flex w-full items-center gap-2 px-3 py-2 text-left hover:bg-slate-100";

/**
 * The workspace the page acts in and the user's role there; the menu lists the others (with the
 * role in each) and makes a new one. Choosing one sets the workspace cookie and reloads.
 */
export function WorkspaceSwitcher({ compact = false, fill = false }: { compact?: boolean; fill?: boolean }) {
  const acting = useWorkspace();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    setCreating(false);
  }, []);
  useDismiss(container, open, close);
  if (!acting) return null;
  const { workspace, workspaces } = acting;
  // On the left of the screen (the editor's toolbar; `fill`: the sidebar, as wide as it) the menu opens rightwards.
  const popupClass = `absolute ${compact || fill ? "left-0" : "right-0"} z-30 mt-1 w-72 rounded border border-slate-200 bg-white shadow-lg`;

  return (
    <div className="relative" ref={container} data-testid="workspace-switcher">
      <button
        type="button"
        className={
          compact
            ? "flex items-center gap-1.5 rounded px-2 py-1 text-sm hover:bg-slate-100"
            : `btn-secondary ${fill ? "w-full" : ""}`
        }
        aria-haspopup="menu"
        aria-expanded={open}
        title={`Workspace ${workspace.name}: you are ${workspace.role} here`}
        onClick={() => (open ? close() : setOpen(true))}
      >
        <span className="sr-only">Workspace: </span>
        <span
          className={`truncate ${compact ? "max-w-28" : fill ? "min-w-0 flex-1 text-left" : "max-w-48"}`}
          data-testid="current-workspace"
        >
          {workspace.name}
        </span>
        {/* The editor's toolbar is crowded: there the role is in the menu and the tooltip. */}
        <span
          className={compact ? "sr-only" : "rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-medium text-slate-600"}
          data-testid="current-role"
        >
          {compact ? `, ${workspace.role}` : roleLabel(workspace.role)}
        </span>
        <ChevronDown size={14} aria-hidden />
      </button>
      {open && !creating && (
        <div role="menu" aria-label="Workspaces" className={`${popupClass} py-1 text-sm`}>
          <p className="px-3 py-1 text-xs font-medium text-slate-500">Workspaces</p>
          {workspaces.map((candidate) => {
            const current = candidate.id === workspace.id;
            return (
              <button
                key={candidate.id}
                type="button"
                role="menuitemradio"
                aria-checked={current}
                className={itemClass}
                onClick={() => (current ? close() : openWorkspace(candidate.id))}
              >
                <span className="w-4 shrink-0">{current && <Check size={14} aria-hidden />}</span>
                <span className="min-w-0 flex-1 truncate">{candidate.name}</span>
                <span className="text-xs text-slate-500">{roleLabel(candidate.role)}</span>
              </button>
            );
          })}
          <div className="my-1 border-t border-slate-100" role="separator" />
          <button type="button" role="menuitem" className={itemClass} onClick={() => setCreating(true)}>
            <Plus size={14} aria-hidden /> New workspace
          </button>
        </div>
      )}
      {open && creating && (
        <div className={`${popupClass} p-3`} role="dialog" aria-label="New workspace">
          <CreateWorkspaceForm onCreated={(created) => openWorkspace(created.id)} onCancel={() => setCreating(false)} />
        </div>
      )}
    </div>
  );
}
