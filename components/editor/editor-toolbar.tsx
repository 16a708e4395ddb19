"use client";

import Link from "next/link";
import { ArrowLeft, Eye, Keyboard, LayoutGrid, Maximize, Redo2, Sparkles, Undo2 } from "lucide-react";
import { useMemo, useState } from "react";
import { WorkspaceSwitcher } from "@/components/auth/workspace-switcher";
import { DeployButton } from "./deploy";
import { AddToDataset, EvaluationsButton } from "./evaluations";
import { RunControls } from "./runs";
import { FixListButton } from "./fix-list";
import { useEditorStore, useEditorStoreApi } from "./store";
import { SaveIndicator } from "./save/save-indicator";
import { ToolbarMenu, type ToolbarMenuItem } from "./toolbar-menu";

/** Where the less-used actions show inline; narrower, they are in the "More actions" menu. */
const INLINE = "hidden 2xl:inline-flex";

export function EditorToolbar({
  onAutoLayout,
  onFitView,
  onShowHelp,
  onToggleCopilot,
}: {
  onAutoLayout: () => void;
  onFitView: () => void;
  onShowHelp: () => void;
  /** Opens or closes the copilot panel (absent: no copilot, as on a past run's page). */
  onToggleCopilot?: () => void;
}) {
  const canUndo = useEditorStore((state) => state.history.past.length > 0);
  const canRedo = useEditorStore((state) => state.history.future.length > 0);
  const readOnly = useEditorStore((state) => state.readOnly);
  // A past run's page shows the workflow as it ran: deploying from there would deploy today's draft.
  const showingPastRun = useEditorStore((state) => state.pastRun !== null);
  const pastRun = useEditorStore((state) => state.pastRun);
  const store = useEditorStoreApi();
  const menuItems = useMemo<ToolbarMenuItem[]>(
    () => [
      ...(readOnly
        ? []
        : [
            {
              id: "undo",
              label: "Undo",
              icon: Undo2,
              shortcut: "Ctrl+Z",
              disabled: !canUndo,
              onSelect: () => store.getState().undo(),
            },
            {
              id: "redo",
              label: "Redo",
              icon: Redo2,
              shortcut: "Ctrl+Shift+Z",
              disabled: !canRedo,
              onSelect: () => store.getState().redo(),
            },
            { id: "auto-layout", label: "Auto layout", icon: LayoutGrid, shortcut: "L", onSelect: onAutoLayout },
          ]),
      { id: "fit-view", label: "Fit view", icon: Maximize, shortcut: "F", onSelect: onFitView },
      { id: "show-shortcuts", label: "Keyboard shortcuts", icon: Keyboard, shortcut: "?", onSelect: onShowHelp },
    ],
    [readOnly, canUndo, canRedo, store, onAutoLayout, onFitView, onShowHelp],
  );
  return (
    // One line at any width: text never wraps, the name and the run's figures give way first, and
    // the less-used actions move into "More actions" as the window narrows.
    <header
      className="flex h-12 shrink-0 items-center gap-2 whitespace-nowrap border-b border-slate-200 bg-white px-3"
      data-testid="editor-toolbar"
    >
      <Link href="/" className="icon-btn shrink-0" aria-label="All workflows">
        <ArrowLeft className="h-4 w-4" aria-hidden />
      </Link>
      <div className="hidden shrink-0 xl:block">
        <WorkspaceSwitcher compact />
      </div>
      <nav aria-label="Breadcrumb" className="flex min-w-16 shrink items-center gap-2 text-sm">
        <span className="hidden text-slate-300 xl:inline" aria-hidden>
          /
        </span>
        <Link href="/workflows" className="hidden text-slate-600 hover:text-slate-900 hover:underline lg:inline">
          Workflows
        </Link>
        <span className="hidden text-slate-300 lg:inline" aria-hidden>
          /
        </span>
        <WorkflowNameInput readOnly={readOnly} />
      </nav>
      {readOnly ? (
        <span className="flex shrink-0 items-center gap-1 text-xs text-slate-600" data-testid="view-only">
          <Eye className="h-3.5 w-3.5" aria-hidden /> {showingPastRun ? "As it ran" : "View only"}
        </span>
      ) : (
        <SaveIndicator />
      )}
      <div className="ml-auto flex min-w-0 items-center justify-end gap-1">
        <RunControls fixList={<FixListButton />} />
        {pastRun?.mayAct && <AddToDataset runId={pastRun.runId} />}
        {!showingPastRun && <EvaluationsButton />}
        {!showingPastRun && <DeployButton />}
        {!readOnly && onToggleCopilot && (
          <button type="button" className="btn-secondary" onClick={onToggleCopilot} data-testid="copilot-toggle">
            <Sparkles className="h-4 w-4" aria-hidden /> <span className="max-lg:sr-only">Copilot</span>
          </button>
        )}
        {!readOnly && <UndoRedo canUndo={canUndo} canRedo={canRedo} className={INLINE} />}
        {!readOnly && (
          <button
            type="button"
            className={`btn-secondary ${INLINE}`}
            onClick={onAutoLayout}
            data-testid="auto-layout"
            title="Arrange automatically (L)"
          >
            <LayoutGrid className="h-4 w-4" aria-hidden /> Auto layout
          </button>
        )}
        <button
          type="button"
          className={`icon-btn ${INLINE}`}
          onClick={onFitView}
          aria-label="Fit view"
          title="Fit view (F)"
          data-testid="fit-view"
        >
          <Maximize className="h-4 w-4" aria-hidden />
        </button>
        <button
          type="button"
          className={`icon-btn ${INLINE}`}
          onClick={onShowHelp}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          data-testid="show-shortcuts"
        >
          <Keyboard className="h-4 w-4" aria-hidden />
        </button>
        <ToolbarMenu items={menuItems} className="shrink-0 2xl:hidden" />
      </div>
    </header>
  );
}

function UndoRedo({ canUndo, canRedo, className }: { canUndo: boolean; canRedo: boolean; className: string }) {
  const store = useEditorStoreApi();
  return (
    <>
      <button
        type="button"
        className={`icon-btn disabled:opacity-40 ${className}`}
        onClick={() => store.getState().undo()}
        disabled={!canUndo}
        aria-label="Undo"
        title="Undo (Ctrl+Z)"
        data-testid="undo"
      >
        <Undo2 className="h-4 w-4" aria-hidden />
      </button>
      <button
        type="button"
        className={`icon-btn disabled:opacity-40 ${className}`}
        onClick={() => store.getState().redo()}
        disabled={!canRedo}
        aria-label="Redo"
        title="Redo (Ctrl+Shift+Z)"
        data-testid="redo"
      >
        <Redo2 className="h-4 w-4" aria-hidden />
      </button>
    </>
  );
}

function WorkflowNameInput({ readOnly }: { readOnly: boolean }) {
  const store = useEditorStoreApi();
  const name = useEditorStore((state) => state.meta.name);
  const [draft, setDraft] = useState(name);
  const [lastName, setLastName] = useState(name);
  // Follows the store when the name changes elsewhere (undo, reload after a conflict).
  if (name !== lastName) {
    setLastName(name);
    setDraft(name);
  }
  return (
    <input
      value={draft}
      readOnly={readOnly}
      aria-label="Workflow name"
      data-testid="workflow-name"
      className="w-64 min-w-0 shrink rounded px-2 py-1 text-sm font-semibold outline-none hover:bg-slate-100 focus:bg-white focus:ring-1 focus:ring-indigo-400"
      onChange={(event) => {
        setDraft(event.target.value);
        if (event.target.value.trim()) store.getState().updateMeta({ name: event.target.value.trim() }, "name");
      }}
    />
  );
}
