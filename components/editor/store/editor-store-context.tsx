"use client";

import { createContext, useContext, useState, type ReactNode } from "react";
import { useStore } from "zustand";
import { createEditorStore, type EditorState, type EditorStore, type EditorStoreOptions } from "./editor-store";
import type { StoredWorkflow } from "@/contract";

const EditorStoreContext = createContext<EditorStore | null>(null);

/** Creates the store once for the workflow it was mounted with; remount (key) for another one. */
export function EditorStoreProvider({
  initial,
  children,
  ...options
}: { initial: StoredWorkflow; children: ReactNode } & EditorStoreOptions) {
  const [store] = useState(() => createEditorStore(initial, options));
  return <EditorStoreContext.Provider value={store}>{children}</EditorStoreContext.Provider>;
}

export function useEditorStoreApi(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditorStore must be used inside <EditorStoreProvider>");
  return store;
}

export function useEditorStore<T>(selector: (state: EditorState) => T): T {
  return useStore(useEditorStoreApi(), selector);
}
