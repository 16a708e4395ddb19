"use client";

import { useCallback } from "react";
import type { BlockTesting } from "@/contract";
import { useEditorStore, useEditorStoreApi } from "../../store";

/**
 * One part of a block's test samples (`block.testing`), read and written through the editor store
 * so it is saved, undone and redone like the config. Setting a part to undefined removes it.
 */
export function useTestingPart<Key extends keyof BlockTesting>(
  blockId: string,
  key: Key,
): [BlockTesting[Key], (value: BlockTesting[Key]) => void] {
  const store = useEditorStoreApi();
  const value = useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data.testing?.[key]);
  const set = useCallback(
    (next: BlockTesting[Key]) => {
      const node = store.getState().nodes.find((candidate) => candidate.id === blockId);
      if (!node) return;
      const testing: BlockTesting = { ...node.data.testing };
      if (next === undefined) delete testing[key];
      else testing[key] = next;
      store
        .getState()
        .updateBlock(blockId, { testing: Object.keys(testing).length > 0 ? testing : undefined }, `testing.${key}`);
    },
    [store, blockId, key],
  );
  return [value, set];
}
