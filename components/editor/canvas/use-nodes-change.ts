"use client";

import { useCallback } from "react";
import type { NodeChange } from "@xyflow/react";
import type { EditorNode } from "../graph/flow-types";
import { growContainersAround } from "../graph/grow-containers";
import { useEditorStoreApi } from "../store";

/**
 * The canvas's node changes, applied by the store; then every container around a child the canvas
 * measured anew grows to hold it. A run's badge makes a block taller, and a block inside a loop
 * otherwise spilled out of its frame and hid the loop's own badge. Growing is a matter of view:
 * it is saved with the next edit, never on its own.
 */
export function useNodesChange() {
  const store = useEditorStoreApi();
  return useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      store.getState().onNodesChange(changes);
      const measured = new Set(
        changes.flatMap((change) => (change.type === "dimensions" && !change.resizing ? [change.id] : [])),
      );
      if (measured.size === 0) return;
      const { nodes } = store.getState();
      const children = nodes.filter((node) => node.parentId && measured.has(node.id)).map((node) => node.id);
      if (children.length === 0) return;
      const grown = growContainersAround(nodes, children);
      if (grown !== nodes) store.setState({ nodes: grown });
    },
    [store],
  );
}
