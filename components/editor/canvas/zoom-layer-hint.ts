import type { Viewport } from "@xyflow/react";

/** Set on the canvas while a zoom is under way; globals.css hints the viewport's layer under it. */
export const ZOOMING_ATTRIBUTE = "data-zooming";

export interface AttributeTarget {
  toggleAttribute(name: string, force: boolean): boolean;
}

/**
 * Move handlers for React Flow that mark the canvas while the zoom level changes, and only then.
 * Chromium re-rasters a composited layer at every new scale unless it carries
 * `will-change: transform`, but keeps a will-change layer at 1x or more whatever the zoom: the hint
 * during a zoom saves a re-raster per frame, and its absence afterwards lets a pan at 50% draw a
 * quarter of the pixels. The attribute is set on the element directly so no frame re-renders React.
 * Pass `attach` as the canvas element's ref.
 */
export function zoomLayerHint() {
  let target: AttributeTarget | null = null;
  let zoomAtStart: number | null = null;
  let zooming = false;
  const mark = (on: boolean) => {
    if (on === zooming) return;
    zooming = on;
    target?.toggleAttribute(ZOOMING_ATTRIBUTE, on);
  };
  return {
    /** A callback ref for the canvas element that carries the attribute. */
    attach: (element: AttributeTarget | null) => {
      target = element;
    },
    onMoveStart: (_event: unknown, viewport: Viewport) => {
      zoomAtStart = viewport.zoom;
    },
    onMove: (_event: unknown, viewport: Viewport) => {
      if (zoomAtStart !== null && viewport.zoom !== zoomAtStart) mark(true);
    },
    onMoveEnd: () => {
      zoomAtStart = null;
      mark(false);
    },
  };
}
