"use client";

import { useCallback } from "react";
import { useEditorStoreApi } from "../store";

/** Reads and writes one config key of one block; edits to the same field undo together. */
export function useSetConfigValue(blockId: string, key: string) {
  const store = useEditorStoreApi();
  return useCallback(
    (value: unknown) => {
      const node = store.getState().nodes.find((candidate) => candidate.id === blockId);
      if (!node) return;
      const config = { ...node.data.config };
      if (value === undefined) delete config[key];
      else config[key] = value;
      store.getState().updateBlock(blockId, { config }, `config.${key}`);
    },
    [store, blockId, key],
  );
}
