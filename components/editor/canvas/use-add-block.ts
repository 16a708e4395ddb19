"use client";

import { useCallback } from "react";
import { getBlockDefinition } from "@/blocks";
import { containerAt } from "../graph/container-hit";
import { DEFAULT_CONTAINER_SIZE } from "../graph/flow-types";
import { freeSpot } from "../graph/free-spot";
import { absolutePosition } from "../graph/graph-operations";
import { createBlock } from "../graph/new-block";
import { useEditorStoreApi } from "../store";

export const PALETTE_DRAG_TYPE = "application/x-trellis-block-type";

/** A new block's size before it is measured. */
const NEW_BLOCK_SIZE = { width: 240, height: 100 };
/** The point of a new block, from its top-left, that lands where it was asked for. */
const ANCHOR = { x: 120, y: 30 };

/**
 * Adds a block of `type` centred on a canvas point, inside the innermost container under it if any
 * (containers nest). `findRoom`: the point is only a wish (a palette click adds "in view"), so the
 * block goes to the nearest place that covers no other block; a drop keeps the exact point.
 */
export function useAddBlock() {
  const store = useEditorStoreApi();
  return useCallback(
    (type: string, point: { x: number; y: number }, options: { findRoom?: boolean } = {}) => {
      const definition = getBlockDefinition(type);
      if (!definition) return;
      const { nodes } = store.getState();
      const size = definition.container ? DEFAULT_CONTAINER_SIZE : NEW_BLOCK_SIZE;
      const wanted = { x: Math.round(point.x - ANCHOR.x), y: Math.round(point.y - ANCHOR.y) };
      const topLeft = options.findRoom ? freeSpot(nodes, wanted, size, ANCHOR) : wanted;
      const parent = containerAt(nodes, { x: topLeft.x + ANCHOR.x, y: topLeft.y + ANCHOR.y });
      let position = topLeft;
      if (parent) {
        const origin = absolutePosition(parent, new Map(nodes.map((node) => [node.id, node])));
        position = { x: topLeft.x - origin.x, y: topLeft.y - origin.y };
      }
      const block = createBlock(
        type,
        position,
        { ids: new Set(nodes.map((node) => node.id)), names: nodes.map((node) => node.data.name) },
        parent?.id ?? null,
      );
      store.getState().addBlocks([block]);
    },
    [store],
  );
}
