import { DEFAULT_CONTAINER_SIZE, type EditorNode } from "./flow-types";

/** Room kept between a child's edge and its container's frame. */
const PADDING = 24;
/**
 * Room kept below the lowest child besides the padding: the frame's footer (its problems and its
 * run badge) sits over the bottom of the frame, and a child reaching it would hide it.
 */
export const CONTAINER_FOOTER_ROOM = 48;
/** A block's size before the canvas has measured it (w-60, one handle row). */
const BLOCK_SIZE = { width: 240, height: 80 };

function sizeOf(node: EditorNode): { width: number; height: number } {
  const fallback = node.type === "container" ? DEFAULT_CONTAINER_SIZE : BLOCK_SIZE;
  return {
    width: node.width ?? node.measured?.width ?? fallback.width,
    height: node.height ?? node.measured?.height ?? fallback.height,
  };
}

/**
 * Grows the containers around `childId`, innermost first, until each holds its child with some
 * room: a loop dropped into a smaller loop, or a block placed near a frame's edge, never hangs
 * outside what will run it. Containers only grow here, never shrink. The same array comes back
 * when nothing had to change.
 */
export function growContainersToFit(nodes: EditorNode[], childId: string): EditorNode[] {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const grown = new Map<string, EditorNode>();
  let child = byId.get(childId);
  while (child?.parentId) {
    const parent = grown.get(child.parentId) ?? byId.get(child.parentId);
    if (!parent) break;
    const childSize = sizeOf(child);
    const parentSize = sizeOf(parent);
    const width = Math.max(parentSize.width, Math.round(child.position.x + childSize.width + PADDING));
    const height = Math.max(
      parentSize.height,
      Math.round(child.position.y + childSize.height + PADDING + CONTAINER_FOOTER_ROOM),
    );
    if (width === parentSize.width && height === parentSize.height) break;
    const next = { ...parent, width, height };
    grown.set(parent.id, next);
    child = next;
  }
  return grown.size === 0 ? nodes : nodes.map((node) => grown.get(node.id) ?? node);
}

/**
 * Grows the containers around each of `childIds`: after the canvas measures a child anew (a run's
 * badge makes it taller), so it never overflows its frame. The same array when nothing changed.
 */
export function growContainersAround(nodes: EditorNode[], childIds: Iterable<string>): EditorNode[] {
  let next = nodes;
  for (const id of childIds) next = growContainersToFit(next, id);
  return next;
}
