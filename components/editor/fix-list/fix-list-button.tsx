"use client";

import { useEffect, useRef } from "react";
import { useReactFlow } from "@xyflow/react";
import { CircleAlert, PencilLine } from "lucide-react";
import type { FixItem } from "../graph/issue-attention";
import { useEditorStore, useEditorStoreApi } from "../store";
import { useFixList } from "./use-fix-list";

/**
 * Beside a disabled Run: how many things are left to fix, and the list of them. Each item names the
 * block and the field by its inspector label; clicking it selects the block, brings it into view
 * and focuses the field.
 */
export function FixListButton() {
  const store = useEditorStoreApi();
  const items = useFixList();
  const open = useEditorStore((state) => state.attention.fixListOpen);
  const readOnly = useEditorStore((state) => state.readOnly);
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !container.current?.contains(event.target as Node))
        store.getState().setFixListOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open, store]);
  if (readOnly || items.length === 0) return null;
  const onlyHints = items.every((item) => item.hint);
  return (
    <div ref={container} className="relative">
      <button
        type="button"
        className={`btn-secondary ${onlyHints ? "text-slate-700" : "text-red-700"}`}
        data-testid="fix-list-button"
        aria-expanded={open}
        aria-haspopup="dialog"
        title="What to finish before the workflow can run"
        onClick={() => store.getState().setFixListOpen(!open)}
      >
        <CircleAlert className="h-4 w-4" aria-hidden /> {items.length} to fix
      </button>
      {open && <FixList items={items} />}
    </div>
  );
}

function FixList({ items }: { items: FixItem[] }) {
  const store = useEditorStoreApi();
  const flow = useReactFlow();
  const go = (item: FixItem) => {
    const state = store.getState();
    state.setFixListOpen(false);
    state.selectOnly(item.blockId ? [item.blockId] : []);
    if (!item.blockId) return;
    void flow.fitView({ nodes: [{ id: item.blockId }], maxZoom: 1, duration: 200 });
    if (item.fieldKey) state.requestFieldFocus(item.blockId, item.fieldKey);
  };
  return (
    <div
      role="dialog"
      aria-label="What to fix before running"
      className="absolute right-0 top-10 z-50 w-80 rounded-lg border border-slate-200 bg-white p-2 shadow-lg"
      data-testid="fix-list"
    >
      <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Before it can run</p>
      <ul className="max-h-80 space-y-0.5 overflow-y-auto">
        {items.map((item, index) => (
          <li key={index}>
            <button
              type="button"
              className="flex w-full items-start gap-2 rounded px-2 py-1.5 text-left text-xs hover:bg-slate-100"
              data-testid="fix-list-item"
              onClick={() => go(item)}
            >
              {item.hint ? (
                <PencilLine className="mt-px h-3.5 w-3.5 shrink-0 text-slate-500" aria-hidden />
              ) : (
                <CircleAlert className="mt-px h-3.5 w-3.5 shrink-0 text-red-600" aria-hidden />
              )}
              <span className="min-w-0">
                <span className="block font-medium text-slate-800">
                  {item.blockName ?? "Workflow"}
                  {item.fieldLabel && <span className="font-normal text-slate-500"> · {item.fieldLabel}</span>}
                </span>
                <span className={item.hint ? "text-slate-600" : "text-red-700"}>{item.text}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
