import { containerAt } from "./container-hit";
import { DEFAULT_CONTAINER_SIZE, type EditorNode } from "./flow-types";
import { absolutePosition } from "./graph-operations";

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A block's size before it is measured (w-60, a header and two handle rows). */
const BLOCK_SIZE = { width: 240, height: 100 };
/** Space kept free around a new block, so its handles and badge do not touch a neighbour. */
const GAP = 24;
/** How many rings of candidate places are tried around the wanted one before giving up. */
const RINGS = 8;

function sizeOf(node: EditorNode): { width: number; height: number } {
  const fallback = node.type === "container" ? DEFAULT_CONTAINER_SIZE : BLOCK_SIZE;
  return {
    width: node.width ?? node.measured?.width ?? fallback.width,
    height: node.height ?? node.measured?.height ?? fallback.height,
  };
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;

/**
 * Where a block of `size` (canvas coordinates, top-left) can go at or near `wanted` without
 * covering any block: the wanted place when it is free, else the nearest free place on a grid of
 * block-sized steps around it that stays in the same container (or outside all of them). The
 * frames of the containers it goes into do not count as covered. `wanted` when nothing is free nearby.
 * `anchor`: the point of the block (from its top-left) whose container it joins.
 */
export function freeSpot(
  nodes: ReadonlyArray<EditorNode>,
  wanted: { x: number; y: number },
  size: { width: number; height: number } = BLOCK_SIZE,
  anchor: { x: number; y: number } = { x: size.width / 2, y: size.height / 2 },
) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const centreOf = (place: { x: number; y: number }) => ({ x: place.x + anchor.x, y: place.y + anchor.y });
  const home = containerAt(nodes, centreOf(wanted));
  const ancestors = new Set<string>();
  for (let current = home; current; current = current.parentId ? (byId.get(current.parentId) ?? null) : null)
    ancestors.add(current.id);
  const taken: Rect[] = nodes
    .filter((node) => !ancestors.has(node.id))
    .map((node) => ({ ...absolutePosition(node, byId), ...sizeOf(node) }));
  const fits = (place: { x: number; y: number }) =>
    !taken.some((rect) => overlaps(rect, { ...place, ...size })) &&
    containerAt(nodes, centreOf(place))?.id === home?.id;
  if (fits(wanted)) return wanted;
  const stepX = size.width + GAP;
  const stepY = size.height + GAP;
  for (let ring = 1; ring <= RINGS; ring += 1) {
    const candidates: Array<{ x: number; y: number; distance: number }> = [];
    for (let dx = -ring; dx <= ring; dx += 1) {
      for (let dy = -ring; dy <= ring; dy += 1) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        const place = { x: wanted.x + dx * stepX, y: wanted.y + dy * stepY };
        candidates.push({ ...place, distance: Math.hypot(dx * stepX, dy * stepY) });
      }
    }
    candidates.sort((a, b) => a.distance - b.distance || a.y - b.y || a.x - b.x);
    const found = candidates.find((place) => fits(place));
    if (found) return { x: found.x, y: found.y };
  }
  return wanted;
}
