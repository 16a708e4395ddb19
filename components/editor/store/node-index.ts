import type { EditorNode } from "../graph/flow-types";

/**
 * The store's nodes by id, built once per nodes array: selectors that look one node up run for
 * every node and edge on every store change (each run event), and a scan of the array there
 * made a 500-block run cost 500 x 500 comparisons a frame.
 */
const indexes = new WeakMap<readonly EditorNode[], ReadonlyMap<string, EditorNode>>();

export function nodeById(nodes: readonly EditorNode[], id: string): EditorNode | undefined {
  let index = indexes.get(nodes);
  if (!index) {
    index = new Map(nodes.map((node) => [node.id, node]));
    indexes.set(nodes, index);
  }
  return index.get(id);
}
