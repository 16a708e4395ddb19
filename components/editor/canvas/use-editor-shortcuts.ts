"use client";

import { useEffect } from "react";
import { useEditorStoreApi } from "../store";

export interface ShortcutActions {
  copy(): void;
  cut(): void;
  paste(): void;
  duplicate(): void;
  fitView(): void;
  autoLayout(): void;
  showHelp(): void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) ||
    target.closest("dialog[open]") !== null
  );
}

/** Editor-wide keys (listed in shortcut-list.ts). Ignored while typing in a field or a dialog. */
export function useEditorShortcuts(actions: ShortcutActions) {
  const store = useEditorStoreApi();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const state = store.getState();
      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };
      // Read-only: keys that look, never keys that change the workflow.
      if (state.readOnly) {
        if (mod && key === "c") return run(actions.copy);
        if (mod && key === "a") return run(state.selectAll);
        if (mod || event.altKey) return;
        if (key === "escape") return run(() => state.selectOnly([]));
        if (key === "?") return run(actions.showHelp);
        if (key === "f") return run(actions.fitView);
        return;
      }
      if (mod && key === "z") return run(event.shiftKey ? state.redo : state.undo);
      if (mod && key === "y") return run(state.redo);
      if (mod && key === "c") return run(actions.copy);
      if (mod && key === "x") return run(actions.cut);
      if (mod && key === "v") return run(actions.paste);
      if (mod && key === "d") return run(actions.duplicate);
      if (mod && key === "a") return run(state.selectAll);
      if (mod || event.altKey) return;
      if (key === "delete" || key === "backspace") return run(state.deleteSelection);
      if (key === "escape") return run(() => state.selectOnly([]));
      if (key === "?") return run(actions.showHelp);
      if (key === "f") return run(actions.fitView);
      if (key === "l") return run(actions.autoLayout);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [actions, store]);
}
