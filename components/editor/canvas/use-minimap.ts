"use client";

import { useCallback, useState } from "react";
import { useStore, type ReactFlowState } from "@xyflow/react";

/** Above this many blocks the minimap starts hidden: it redraws every block on each pan frame. */
export const MINIMAP_AUTO_LIMIT = 200;
/**
 * The smallest canvas the minimap is shown on unasked. On a canvas shorter or narrower (the run
 * panel open below it, a small window) the map covered the blocks and error text in its corner
 * and took their clicks.
 */
export const MINIMAP_ROOM = { width: 640, height: 480 } as const;

export function canvasHasMinimapRoom(width: number, height: number): boolean {
  return width >= MINIMAP_ROOM.width && height >= MINIMAP_ROOM.height;
}

/** The minimap's size (smaller than React Flow's 200 x 150) and its panel's distance from the canvas corner. */
export const MINIMAP_SIZE = { width: 160, height: 110 } as const;
const PANEL_MARGIN = 15;

/** The part of the pane, bottom right, that the minimap covers, in screen pixels of the pane. */
function minimapArea(paneWidth: number, paneHeight: number) {
  const right = paneWidth - PANEL_MARGIN;
  const bottom = paneHeight - PANEL_MARGIN;
  return { left: right - MINIMAP_SIZE.width, top: bottom - MINIMAP_SIZE.height, right, bottom };
}

/**
 * Whether a block is drawn (partly) where the minimap would sit: a canvas with room for the map
 * can still have the view fitted so that a block lies in its corner, and the map then hid it.
 */
export function blockUnderMinimap(
  state: Pick<ReactFlowState, "width" | "height" | "transform" | "nodeLookup">,
): boolean {
  const area = minimapArea(state.width, state.height);
  const [x, y, zoom] = state.transform;
  for (const node of state.nodeLookup.values()) {
    if (node.hidden) continue;
    const left = node.internals.positionAbsolute.x * zoom + x;
    const top = node.internals.positionAbsolute.y * zoom + y;
    const right = left + (node.measured.width ?? 0) * zoom;
    const bottom = top + (node.measured.height ?? 0) * zoom;
    if (left < area.right && right > area.left && top < area.bottom && bottom > area.top) return true;
  }
  return false;
}

/**
 * Whether the minimap is shown: what the user chose with its button, or else shown while the
 * canvas has room for it, no block is drawn in its corner, and the workflow is small enough. `observe` is a callback ref for the
 * canvas element, whose size it follows.
 */
export function useMinimap(blockCount: number) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [roomy, setRoomy] = useState(true);
  const [small] = useState(blockCount <= MINIMAP_AUTO_LIMIT);
  // Checked on each view change while it matters (a large workflow never shows the map unasked).
  const covering = useStore((state) => small && chosen === null && blockUnderMinimap(state));
  const observe = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setRoomy(canvasHasMinimapRoom(entry.contentRect.width, entry.contentRect.height));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const shown = chosen ?? (roomy && small && !covering);
  const toggle = useCallback(() => setChosen(!shown), [shown]);
  return { shown, toggle, observe };
}
