"use client";

import { useEffect } from "react";
import { lookupBlockType } from "@/blocks";
import { validateWorkflow } from "@/executor";
import { issuesByBlock, sameIssues } from "../graph/issues-by-block";
import { useEditorStoreApi } from "../store";

const VALIDATION_DELAY_MS = 150;

/**
 * Runs the executor's own validator (the one the API and every run use) shortly after each edit
 * and files the issues per block for the node badges and the inspector.
 */
export function useValidation() {
  const store = useEditorStoreApi();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const validate = () => {
      const state = store.getState();
      const document = state.toDocument();
      const next = issuesByBlock(document, validateWorkflow(document, lookupBlockType));
      const previous = state.issues.byBlock;
      // Keep unchanged arrays so only nodes whose problems changed re-render.
      for (const id of Object.keys(next.byBlock))
        if (sameIssues(previous[id], next.byBlock[id])) next.byBlock[id] = previous[id]!;
      state.setIssues(next);
    };
    validate();
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.save.revision === previous.save.revision) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(validate, VALIDATION_DELAY_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store]);
}
