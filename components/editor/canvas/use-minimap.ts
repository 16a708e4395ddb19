"use client";

import { useCallback, useState } from "react";

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

/**
 * Whether the minimap is shown: what the user chose with its button, or else shown while the
 * canvas has room for it and the workflow is small enough. `observe` is a callback ref for the
 * canvas element, whose size it follows.
 */
export function useMinimap(blockCount: number) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [roomy, setRoomy] = useState(true);
  const [small] = useState(blockCount <= MINIMAP_AUTO_LIMIT);
  const observe = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setRoomy(canvasHasMinimapRoom(entry.contentRect.width, entry.contentRect.height));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const shown = chosen ?? (roomy && small);
  const toggle = useCallback(() => setChosen(!shown), [shown]);
  return { shown, toggle, observe };
}
