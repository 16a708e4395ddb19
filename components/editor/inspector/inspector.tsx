"use client";

import { PanelRightClose, PanelRightOpen } from "lucide-react";
import type { SidePanelControl } from "../editor-panels";
import { useEditorStore } from "../store";
import { BlockInspector } from "./block-inspector";
import { EdgeInspector } from "./edge-inspector";
import { WorkflowSettings } from "./workflow-settings";
import { countOf } from "@/contract";

/**
 * The right-hand panel: the selected block's form, the selected edge's, or the workflow's settings
 * (every field disabled when read-only). Collapsed (`control`), one button that reopens it.
 */
export function Inspector({ control }: { control?: SidePanelControl }) {
  const selectedIds = useEditorStore((state) => selectedIdsKey(state.nodes));
  const selectedEdgeIds = useEditorStore((state) => selectedIdsKey(state.edges));
  const readOnly = useEditorStore((state) => state.readOnly);
  const ids = selectedIds ? selectedIds.split("\n") : [];
  if (control?.collapsed) {
    return (
      <aside
        className="flex h-full flex-col items-center bg-white py-2"
        aria-label="Inspector"
        data-testid="inspector"
        data-collapsed="true"
      >
        <button
          type="button"
          className="icon-btn"
          aria-label="Show the inspector"
          title="Show the inspector"
          data-testid="inspector-expand"
          onClick={control.expand}
        >
          <PanelRightOpen className="h-4 w-4" aria-hidden />
        </button>
      </aside>
    );
  }
  return (
    <aside
      className="relative flex h-full flex-col overflow-y-auto bg-white"
      aria-label="Inspector"
      data-testid="inspector"
    >
      {control && (
        <div className="flex justify-end px-1 pt-1">
          <button
            type="button"
            className="icon-btn h-6 w-6"
            aria-label="Collapse the inspector"
            title="Collapse the inspector"
            data-testid="inspector-collapse"
            onClick={control.collapse}
          >
            <PanelRightClose className="h-4 w-4" aria-hidden />
          </button>
        </div>
      )}
      {/* A disabled fieldset disables every input, select, textarea and button inside it; the code editors check for it too. */}
      <fieldset disabled={readOnly} className="m-0 min-w-0 border-0 p-0" data-testid="inspector-fields">
        {ids.length === 1 ? (
          <BlockInspector key={ids[0]} blockId={ids[0]!} />
        ) : ids.length > 1 ? (
          <p className="p-4 text-sm text-slate-600" data-testid="inspector-multi">
            {countOf(ids.length, "block")} selected. Move, copy, duplicate or delete them together.
          </p>
        ) : selectedEdgeIds && !selectedEdgeIds.includes("\n") ? (
          <EdgeInspector key={selectedEdgeIds} edgeId={selectedEdgeIds} />
        ) : (
          <WorkflowSettings />
        )}
      </fieldset>
    </aside>
  );
}

/** A string so the selector result compares by value and the panel re-renders only on change. */
function selectedIdsKey(nodes: ReadonlyArray<{ id: string; selected?: boolean }>): string {
  let key = "";
  for (const node of nodes) if (node.selected) key = key ? `${key}\n${node.id}` : node.id;
  return key;
}
