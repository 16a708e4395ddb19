"use client";

import { useReactFlow } from "@xyflow/react";
import { X } from "lucide-react";
import { useState } from "react";
import { isEntryBlock } from "@/blocks";
import { workflowDocumentSchema } from "@/contract";
import { useEditorStore, useEditorStoreApi } from "../store";
import { documentFromTemplate } from "@/components/templates/template-document";
import { TemplateGallery } from "@/components/templates/template-gallery";

/**
 * Over an empty workflow's canvas (nothing but its Start block): the template gallery. Using a
 * template fills this workflow with it (one undoable change, saved like any edit), keeping its
 * name; "Start from scratch" puts the gallery away.
 */
export function EmptyCanvasTemplates() {
  const store = useEditorStoreApi();
  const flow = useReactFlow();
  const empty = useEditorStore((state) => !state.readOnly && state.nodes.every((node) => isEntryBlock(node.data)));
  const [dismissed, setDismissed] = useState(false);
  if (!empty || dismissed) return null;
  return (
    // At the bottom of the canvas, so the Start block (in the middle) and the palette stay in reach.
    <div
      className="pointer-events-none absolute inset-x-0 bottom-0 z-10 flex justify-center p-4"
      data-testid="empty-canvas-templates"
    >
      <div className="pointer-events-auto relative max-h-[45vh] w-full max-w-5xl overflow-auto rounded-xl border border-slate-200 bg-slate-50/95 p-4 shadow-lg">
        <button
          type="button"
          className="absolute right-3 top-3 flex items-center gap-1 text-xs text-slate-600 hover:text-slate-900"
          onClick={() => setDismissed(true)}
          data-testid="start-from-scratch"
        >
          <X size={14} aria-hidden /> Start from scratch
        </button>
        <TemplateGallery
          compact
          title="This workflow is empty: start from a template"
          onUse={async (template) => {
            const current = store.getState().toDocument();
            const filled = await documentFromTemplate(template, current.name);
            store.getState().replaceDocument(workflowDocumentSchema.parse({ ...filled, name: current.name }));
            // After React Flow has the new nodes: fit them in view.
            requestAnimationFrame(() => void flow.fitView({ maxZoom: 1, padding: 0.2 }));
          }}
        />
      </div>
    </div>
  );
}
