"use client";

import { memo } from "react";
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { useEdgeTaken } from "../runs";
import type { EditorEdge, EdgeVariant } from "../graph/flow-types";
import { useEditorStoreApi } from "../store";

/** Palette variables, so edges follow the light or dark theme (app/dark-palette.css). */
const STROKES: Record<EdgeVariant, string> = {
  default: "var(--color-slate-500)",
  error: "var(--color-red-500)",
  branch: "var(--color-amber-600)",
  body: "var(--color-violet-500)",
};

/** Edges take the colour of the handle they leave: error red, branches amber, container body violet. A condition is drawn as a label on the edge. */
export const FlowEdge = memo(function FlowEdge(props: EdgeProps<EditorEdge>) {
  const store = useEditorStoreApi();
  const [path, labelX, labelY] = getBezierPath(props);
  const variant = props.data?.variant ?? "default";
  const condition = props.data?.condition?.trim();
  // The shown run went this way: drawn thick and green, over the handle colour.
  const taken = useEdgeTaken({
    source: props.source,
    target: props.target,
    sourceHandle: props.sourceHandleId,
    condition,
  });
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        markerEnd={props.markerEnd}
        className={taken ? "edge-taken" : undefined}
        style={{
          stroke: props.selected ? "var(--color-indigo-600)" : taken ? "var(--color-emerald-500)" : STROKES[variant],
          strokeWidth: props.selected || taken ? 2.5 : 1.5,
          strokeDasharray: variant === "error" ? "5 4" : undefined,
        }}
      />
      {condition && (
        <EdgeLabelRenderer>
          <div
            className={`nodrag nopan pointer-events-auto absolute max-w-48 truncate rounded border bg-white px-1.5 py-0.5 font-mono text-[10px] ${
              props.selected ? "border-indigo-400 text-indigo-700" : "border-slate-300 text-slate-600"
            }`}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            title={`Taken only when: ${condition}`}
            onClick={() => store.getState().selectEdge(props.id)}
            data-testid={`edge-condition-label-${props.id}`}
          >
            if {condition}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
});
