"use client";

import { useEffect, useState } from "react";
import { saveStatus, useEditorStoreApi } from "../store";
import { clearDraft, readDraft, writeDraft, type DraftBackup } from "./draft-backup";

const BACKUP_DELAY_MS = 400;

/**
 * Mirrors unsaved work into localStorage and drops it once the server has it. Returns a draft
 * left by an earlier visit, if its content differs from what the server holds.
 */
export function useDraftBackup(): { draft: DraftBackup | null; dismiss: () => void } {
  const store = useEditorStoreApi();
  const [draft, setDraft] = useState<DraftBackup | null>(() => {
    if (typeof window === "undefined") return null;
    const state = store.getState();
    const found = readDraft(state.workflowId);
    if (!found) return null;
    return JSON.stringify(found.document) === JSON.stringify(state.toDocument()) ? null : found;
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.save === previous.save) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        const current = store.getState();
        if (saveStatus(current.save) === "saved") clearDraft(current.workflowId);
        else
          writeDraft(current.workflowId, {
            basedOnVersion: current.save.version,
            keptAt: new Date().toISOString(),
            document: current.toDocument(),
          });
      }, BACKUP_DELAY_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store]);

  return { draft, dismiss: () => setDraft(null) };
}
