"use client";

import { useMemo, useState } from "react";
import { PanelLeftClose, PanelLeftOpen, Search } from "lucide-react";
import { useReactFlow } from "@xyflow/react";
import { BLOCK_TYPES, getBlockDefinition, type BlockCategory, type BlockDefinition } from "@/blocks";
import type { SidePanelControl } from "../editor-panels";
import { BlockIcon } from "./block-icon";
import { PALETTE_DRAG_TYPE, useAddBlock } from "./use-add-block";

const CATEGORY_LABELS: Record<BlockCategory, string> = {
  core: "Core",
  ai: "AI",
  logic: "Logic",
  data: "Data",
  tools: "Tools",
};

const visibleDefinitions: BlockDefinition[] = BLOCK_TYPES.map((type) => getBlockDefinition(type)!).filter(
  (definition) => !definition.hidden,
);

/**
 * Block types from the registry: drag one onto the canvas, or click (or Enter) to add it in view.
 * Collapsed (`control`), a column of the block types' icons that add or drag the same way.
 */
export function Palette({ control }: { control?: SidePanelControl }) {
  const [query, setQuery] = useState("");
  const addBlock = useAddBlock();
  const flow = useReactFlow();
  const groups = useMemo(() => {
    const wanted = query.trim().toLowerCase();
    const matches = visibleDefinitions.filter(
      (definition) =>
        !wanted ||
        [definition.label, definition.type, definition.description].some((text) => text.toLowerCase().includes(wanted)),
    );
    return (Object.keys(CATEGORY_LABELS) as BlockCategory[])
      .map((category) => ({ category, items: matches.filter((definition) => definition.category === category) }))
      .filter((group) => group.items.length > 0);
  }, [query]);

  const addInView = (type: string) => {
    const canvas = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
    const centre = canvas
      ? { x: canvas.left + canvas.width / 2, y: canvas.top + canvas.height / 2 }
      : { x: 400, y: 300 };
    addBlock(type, flow.screenToFlowPosition(centre), { findRoom: true });
  };

  const startDrag = (event: React.DragEvent, type: string) => {
    event.dataTransfer.setData(PALETTE_DRAG_TYPE, type);
    event.dataTransfer.effectAllowed = "copy";
  };

  if (control?.collapsed) {
    return (
      <aside
        className="flex h-full flex-col items-center gap-1 overflow-y-auto bg-white py-2"
        aria-label="Blocks"
        data-testid="palette"
        data-collapsed="true"
      >
        <button
          type="button"
          className="icon-btn shrink-0"
          aria-label="Show the blocks panel"
          title="Show the blocks panel"
          data-testid="palette-expand"
          onClick={control.expand}
        >
          <PanelLeftOpen className="h-4 w-4" aria-hidden />
        </button>
        {visibleDefinitions.map((definition) => (
          <button
            key={definition.type}
            type="button"
            draggable
            onDragStart={(event) => startDrag(event, definition.type)}
            onClick={() => addInView(definition.type)}
            aria-label={`Add ${definition.label}`}
            title={`${definition.label}: ${definition.description}`}
            data-testid={`palette-item-${definition.type}`}
            className="icon-btn shrink-0 cursor-grab active:cursor-grabbing"
          >
            <BlockIcon name={definition.icon} className="h-4 w-4" />
          </button>
        ))}
      </aside>
    );
  }

  return (
    <aside className="flex h-full flex-col bg-white" aria-label="Blocks" data-testid="palette">
      <div className="m-2 flex items-center gap-1">
        <label className="flex min-w-0 flex-1 items-center gap-1.5 rounded border border-slate-300 px-2 py-1 focus-within:border-indigo-500">
          <Search className="h-3.5 w-3.5 text-slate-400" aria-hidden />
          <input
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search blocks"
            aria-label="Search blocks"
            className="w-full text-sm outline-none"
            data-testid="palette-search"
          />
        </label>
        {control && (
          <button
            type="button"
            className="icon-btn shrink-0"
            aria-label="Collapse the blocks panel"
            title="Collapse the blocks panel"
            data-testid="palette-collapse"
            onClick={control.collapse}
          >
            <PanelLeftClose className="h-4 w-4" aria-hidden />
          </button>
        )}
      </div>
      <div className="flex-1 overflow-y-auto px-2 pb-2">
        {groups.length === 0 && <p className="px-1 py-2 text-xs text-slate-500">No block matches “{query}”.</p>}
        {groups.map((group) => (
          <section key={group.category} className="mb-2">
            <h3 className="px-1 py-1 text-[11px] font-semibold uppercase tracking-wide text-slate-400">
              {CATEGORY_LABELS[group.category]}
            </h3>
            <ul className="space-y-1">
              {group.items.map((definition) => (
                <li key={definition.type}>
                  <button
                    type="button"
                    draggable
                    onDragStart={(event) => startDrag(event, definition.type)}
                    onClick={() => addInView(definition.type)}
                    title={definition.description}
                    data-testid={`palette-item-${definition.type}`}
                    className="flex w-full cursor-grab items-center gap-2 rounded border border-slate-200 bg-white px-2 py-1.5 text-left text-sm hover:border-indigo-300 hover:bg-indigo-50 active:cursor-grabbing"
                  >
                    <BlockIcon name={definition.icon} className="h-4 w-4 shrink-0 text-slate-600" />
                    <span className="truncate">{definition.label}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
