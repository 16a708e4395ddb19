"use client";

import { useEffect } from "react";
import { lookupBlockType } from "@/blocks";
import { useModelList } from "@/components/prices/use-model-list";
import { validateWorkflow } from "@/executor";
import { issuesByBlock, sameIssues } from "../graph/issues-by-block";
import { modelKeyIssues } from "../graph/model-key-issues";
import { useEditorStoreApi } from "../store";

const VALIDATION_DELAY_MS = 150;

/**
 * Runs the executor's own validator (the one the API and every run use) shortly after each edit
 * and files the issues per block for the node badges and the inspector, with the blocks whose
 * model has no key for this workspace (from the model list, read again when it changes).
 */
export function useValidation() {
  const store = useEditorStoreApi();
  const models = useModelList().data?.models;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const validate = () => {
      const state = store.getState();
      const document = state.toDocument();
      const keys = modelKeyIssues(document, models);
      const next = issuesByBlock(document, [...validateWorkflow(document, lookupBlockType), ...keys.issues]);
      const onlyKeys =
        keys.issues.length > 0 && next.workflow.length === 0 && issueCount(next.byBlock) === keys.issues.length;
      if (onlyKeys && keys.testRunAllowed) next.testRunAllowed = true;
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
  }, [store, models]);
}

function issueCount(byBlock: Record<string, ReadonlyArray<unknown>>): number {
  return Object.values(byBlock).reduce((total, issues) => total + issues.length, 0);
}
