"use client";

import { memo } from "react";
import { ViewportPortal } from "@xyflow/react";

/**
 * The canvas's dotted backdrop, drawn inside the viewport so it moves with the graph as one
 * composited layer. React Flow's <Background> redraws a screen-sized SVG pattern on every pan
 * frame, which costs more than everything else on the canvas together without a GPU.
 */
export const DotGrid = memo(function DotGrid() {
  return (
    <ViewportPortal>
      <div className="canvas-dot-grid" aria-hidden />
    </ViewportPortal>
  );
});
