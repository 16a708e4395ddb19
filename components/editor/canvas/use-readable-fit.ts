"use client";

import { useCallback } from "react";
import { useReactFlow } from "@xyflow/react";
import { DEFAULT_CONTAINER_SIZE } from "../graph/flow-types";
import { useEditorStoreApi } from "../store";
import { READABLE_ZOOM, readableFitIds } from "./readable-fit";
import { FIT_ALL } from "./workflow-canvas";

const BLOCK_SIZE = { width: 240, height: 100 };

/** Fits the view to the workflow after auto-layout, never so far out that its text stops reading (readable-fit.ts). */
export function useReadableFit() {
  const store = useEditorStoreApi();
  const flow = useReactFlow();
  return useCallback(() => {
    const canvasWidth = document.querySelector('[data-testid="canvas"]')?.clientWidth ?? 1000;
    const boxes = store
      .getState()
      .nodes.filter((node) => !node.parentId)
      .map((node) => {
        const fallback = node.type === "container" ? DEFAULT_CONTAINER_SIZE : BLOCK_SIZE;
        return {
          id: node.id,
          ...node.position,
          width: node.width ?? node.measured?.width ?? fallback.width,
          height: node.height ?? node.measured?.height ?? fallback.height,
        };
      });
    const ids = readableFitIds(boxes, canvasWidth, FIT_ALL.padding);
    void flow.fitView({ ...FIT_ALL, minZoom: READABLE_ZOOM, nodes: ids.map((id) => ({ id })), duration: 200 });
  }, [store, flow]);
}
