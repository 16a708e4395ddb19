"use client";

import { memo } from "react";
import { BaseEdge, getBezierPath, type EdgeProps } from "@xyflow/react";
import { useEdgeTaken } from "@/components/runs";
import type { EditorEdge, EdgeVariant } from "../graph/flow-types";

const STROKES: Record<EdgeVariant, string> = { default: "#64748b", error: "#ef4444", branch: "#d97706", body: "#8b5cf6" };

/** Edges take the colour of the handle they leave: error red, branches amber, container body violet. */
export const FlowEdge = memo(function FlowEdge(props: EdgeProps<EditorEdge>) {
  const [path] = getBezierPath(props);
  const variant = props.data?.variant ?? "default";
  // The shown run went this way: drawn thick and green, over the handle colour.
  const taken = useEdgeTaken({ source: props.source, target: props.target, sourceHandle: props.sourceHandleId });
  return (
    <BaseEdge
      id={props.id}
      path={path}
      markerEnd={props.markerEnd}
      className={taken ? "edge-taken" : undefined}
      style={{
        stroke: props.selected ? "#4f46e5" : taken ? "#10b981" : STROKES[variant],
        strokeWidth: props.selected || taken ? 2.5 : 1.5,
        strokeDasharray: variant === "error" ? "5 4" : undefined,
      }}
    />
  );
});
