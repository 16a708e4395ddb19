import { absolutePosition } from "./graph-operations";
import { DEFAULT_CONTAINER_SIZE, type EditorNode } from "./flow-types";

/**
 * The innermost container whose frame holds `point` (canvas coordinates), skipping `excludeId`
 * and anything inside it, so a container is never dropped into itself.
 */
export function containerAt(
  nodes: ReadonlyArray<EditorNode>,
  point: { x: number; y: number },
  excludeId?: string,
): EditorNode | null {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const insideExcluded = (node: EditorNode): boolean => {
    let current: EditorNode | undefined = node;
    while (current) {
      if (current.id === excludeId) return true;
      current = current.parentId ? byId.get(current.parentId) : undefined;
    }
    return false;
  };
  let best: { node: EditorNode; depth: number } | null = null;
  for (const node of nodes) {
    if (node.type !== "container" || insideExcluded(node)) continue;
    const origin = absolutePosition(node, byId);
    const width = node.width ?? node.measured?.width ?? DEFAULT_CONTAINER_SIZE.width;
    const height = node.height ?? node.measured?.height ?? DEFAULT_CONTAINER_SIZE.height;
    if (point.x < origin.x || point.y < origin.y || point.x > origin.x + width || point.y > origin.y + height) continue;
    let depth = 0;
    for (let parent = node.parentId; parent; parent = byId.get(parent)?.parentId) depth += 1;
    if (!best || depth > best.depth) best = { node, depth };
  }
  return best?.node ?? null;
}
