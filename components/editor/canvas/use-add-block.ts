"use client";

import { useCallback } from "react";
import { getBlockDefinition } from "@/blocks";
import { containerAt } from "../graph/container-hit";
import { absolutePosition } from "../graph/graph-operations";
import { createBlock } from "../graph/new-block";
import { useEditorStoreApi } from "../store";

export const PALETTE_DRAG_TYPE = "application/x-trellis-block-type";

/** Adds a block of `type` centred on a canvas point, inside the innermost container under it if any (containers nest). */
export function useAddBlock() {
  const store = useEditorStoreApi();
  return useCallback(
    (type: string, point: { x: number; y: number }) => {
      const definition = getBlockDefinition(type);
      if (!definition) return;
      const { nodes } = store.getState();
      const topLeft = { x: Math.round(point.x - 120), y: Math.round(point.y - 30) };
      const parent = containerAt(nodes, point);
      let position = topLeft;
      if (parent) {
        const origin = absolutePosition(parent, new Map(nodes.map((node) => [node.id, node])));
        position = { x: topLeft.x - origin.x, y: topLeft.y - origin.y };
      }
      const block = createBlock(type, position, { ids: new Set(nodes.map((node) => node.id)), names: nodes.map((node) => node.data.name) }, parent?.id ?? null);
      store.getState().addBlocks([block]);
    },
    [store],
  );
}
