"use client";

import { useCallback, useRef } from "react";
import { buildClipboardPayload, parseClipboardText, preparePaste } from "../graph/clipboard-payload";
import { useEditorStoreApi } from "../store";

const PASTE_STEP = 40;

/**
 * Copy and paste as JSON text on the system clipboard, so blocks move between workflows and tabs.
 * When the page may not touch the clipboard, a copy kept in memory still serves this tab.
 */
export function useClipboard() {
  const store = useEditorStoreApi();
  const memory = useRef<string | null>(null);
  const pasteCount = useRef<{ text: string; count: number }>({ text: "", count: 0 });

  const copy = useCallback(async (): Promise<boolean> => {
    const state = store.getState();
    const selected = new Set(state.nodes.filter((node) => node.selected).map((node) => node.id));
    const document = state.toDocument();
    const payload = buildClipboardPayload(document.blocks, document.edges, selected);
    if (!payload) return false;
    const text = JSON.stringify(payload, null, 2);
    memory.current = text;
    pasteCount.current = { text, count: 0 };
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard permission refused: the in-memory copy is enough within this tab.
    }
    return true;
  }, [store]);

  const pasteText = useCallback(
    (text: string | null): boolean => {
      const payload = text ? parseClipboardText(text) : null;
      if (!payload || !text) return false;
      pasteCount.current =
        pasteCount.current.text === text ? { text, count: pasteCount.current.count + 1 } : { text, count: 1 };
      const state = store.getState();
      const step = PASTE_STEP * pasteCount.current.count;
      const prepared = preparePaste(
        payload,
        {
          blockIds: new Set(state.nodes.map((node) => node.id)),
          blockNames: state.nodes.map((node) => node.data.name),
          edgeIds: new Set(state.edges.map((edge) => edge.id)),
        },
        { x: step, y: step },
      );
      state.addBlocks(prepared.blocks, prepared.edges);
      return true;
    },
    [store],
  );

  const paste = useCallback(async (): Promise<boolean> => {
    let text: string | null = null;
    try {
      text = await navigator.clipboard.readText();
    } catch {
      text = null;
    }
    if (text && parseClipboardText(text)) return pasteText(text);
    return pasteText(memory.current);
  }, [pasteText]);

  const duplicate = useCallback(async () => {
    const saved = memory.current;
    const state = store.getState();
    const selected = new Set(state.nodes.filter((node) => node.selected).map((node) => node.id));
    const document = state.toDocument();
    const payload = buildClipboardPayload(document.blocks, document.edges, selected);
    if (!payload) return;
    pasteCount.current = { text: "", count: 0 };
    pasteText(JSON.stringify(payload));
    memory.current = saved;
  }, [pasteText, store]);

  const cut = useCallback(async () => {
    if (await copy()) store.getState().deleteSelection();
  }, [copy, store]);

  return { copy, paste, pasteText, duplicate, cut };
}
