import { Position, type NodeHandle } from "@xyflow/react";
import { getBlockDefinition } from "@/blocks";
import type { EditorNode } from "../graph/flow-types";
import { nodeAsBlock } from "./node-as-block";

/*
 * React Flow renders every node once to measure it unless the node arrives with a size and its
 * handle positions. On a 500-block workflow that first full render is most of the opening time, so
 * block nodes that were never measured get an estimate from the layout of block-node.tsx (w-60
 * card, 53.5 px header, 20 px per source-handle row, handles 12 px). Only culled, off-screen nodes
 * keep the estimate: a node that comes into view is measured and its real bounds replace it. A
 * block measured once is never estimated again (an undo or reload may bring back an unmeasured
 * copy; React Flow must then measure it, since badges change its real height).
 */
const WIDTH = 240;
const HEADER = 53.5;
const ROW = 20;
const HANDLE = 12;

const estimates = new WeakMap<EditorNode, EditorNode>();

function estimate(node: EditorNode): EditorNode {
  const definition = getBlockDefinition(node.data.type);
  if (!definition) return node;
  const sources = definition.sourceHandles(nodeAsBlock(node.id, node.data, node.parentId));
  const rows = sources.length > 0 ? 8 + ROW * sources.length - 4 : 0;
  const height = Math.round(HEADER + rows + 1);
  const handles: NodeHandle[] = sources.map((handle, index) => ({
    id: handle.id,
    type: "source",
    position: Position.Right,
    x: WIDTH + 2,
    y: HEADER + 6 + ROW * index,
    width: HANDLE,
    height: HANDLE,
  }));
  if (definition.acceptsInput !== false) {
    handles.push({
      id: null,
      type: "target",
      position: Position.Left,
      x: -HANDLE / 2,
      y: height / 2 - HANDLE / 2,
      width: HANDLE,
      height: HANDLE,
    });
  }
  return { ...node, initialWidth: WIDTH, initialHeight: height, handles };
}

/**
 * The node as React Flow should see it: block nodes never measured carry estimated bounds.
 * `measuredIds` belongs to one canvas and collects every block seen measured.
 */
export function withEstimatedBounds(node: EditorNode, measuredIds: Set<string>): EditorNode {
  if (node.type !== "block") return node;
  if (node.measured?.width) {
    measuredIds.add(node.id);
    return node;
  }
  if (measuredIds.has(node.id)) return node;
  let estimated = estimates.get(node);
  if (!estimated) {
    estimated = estimate(node);
    estimates.set(node, estimated);
  }
  return estimated;
}
