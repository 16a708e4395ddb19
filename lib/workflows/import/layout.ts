import { getBlockDefinition } from "@/blocks";
import type { BuiltBlock, BuiltEdge } from "./built-graph";

const COLUMN = 300;
const ROW = 170;
/** Room inside a container above and left of its first block (its header and handles). */
const INSET = { x: 60, y: 90 };

/**
 * Places blocks that came without a position in layers, left to right, by their depth in their
 * scope (the longest path of edges to them, a container's `body` edges left out), and sizes each
 * container around what it holds. Blocks the file placed keep their places. Inner scopes are laid
 * out first so a container's size is known before its own scope is.
 */
export function layOut(blocks: BuiltBlock[], edges: BuiltEdge[]): BuiltBlock[] {
  const placed = blocks.map((block) => ({ ...block }));
  const byId = new Map(placed.map((block) => [block.id, block]));
  const scopes = new Map<string | null, BuiltBlock[]>();
  for (const block of placed) {
    const scope = block.parentId && byId.has(block.parentId) ? block.parentId : null;
    const members = scopes.get(scope);
    if (members) members.push(block);
    else scopes.set(scope, [block]);
  }
  const sizeOf = (block: BuiltBlock) => block.size ?? { width: 240, height: 80 };

  const layScope = (scopeId: string | null) => {
    const members = scopes.get(scopeId) ?? [];
    for (const member of members) if (getBlockDefinition(member.type)?.container) layScope(member.id);
    const memberIds = new Set(members.map((member) => member.id));
    const inScope = edges.filter(
      (edge) => edge.sourceHandle !== "body" && memberIds.has(edge.source) && memberIds.has(edge.target),
    );
    const depth = depths(members, inScope);
    const rows = new Map<number, number>();
    const columnWidth = new Map<number, number>();
    for (const member of members) {
      const column = depth.get(member.id) ?? 0;
      columnWidth.set(column, Math.max(columnWidth.get(column) ?? COLUMN, sizeOf(member).width + 60));
    }
    // Each column's x once, as a running sum: summing the widths per block was quadratic in a long chain.
    const lastColumn = [...depth.values()].reduce((most, column) => Math.max(most, column), 0);
    const columnStarts: number[] = [scopeId ? INSET.x : 0];
    for (let index = 0; index < lastColumn; index += 1)
      columnStarts.push(columnStarts[index]! + (columnWidth.get(index) ?? COLUMN));
    const columnX = (column: number) => columnStarts[column]!;
    for (const member of members) {
      if (member.position) continue;
      const column = depth.get(member.id) ?? 0;
      const y = rows.get(column) ?? (scopeId ? INSET.y : 0);
      member.position = { x: columnX(column), y };
      rows.set(column, y + Math.max(ROW, sizeOf(member).height + 50));
    }
    if (scopeId) {
      const container = byId.get(scopeId)!;
      if (!container.size) {
        const right = members.reduce((most, member) => Math.max(most, member.position!.x + sizeOf(member).width), 300);
        const bottom = members.reduce(
          (most, member) => Math.max(most, member.position!.y + sizeOf(member).height),
          120,
        );
        container.size = { width: right + INSET.x, height: bottom + 60 };
      }
    }
  };
  layScope(null);
  return placed;
}

/** The longest path to each block from the blocks nothing in its scope leads to; cycles (never valid) stop at depth 0. */
function depths(members: BuiltBlock[], edges: BuiltEdge[]): Map<string, number> {
  const incoming = new Map<string, string[]>();
  for (const edge of edges) {
    const sources = incoming.get(edge.target);
    if (sources) sources.push(edge.source);
    else incoming.set(edge.target, [edge.source]);
  }
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const sources = incoming.get(id) ?? [];
    const value = sources.reduce((deepest, source) => Math.max(deepest, visit(source) + 1), 0);
    visiting.delete(id);
    depth.set(id, value);
    return value;
  };
  for (const member of members) visit(member.id);
  return depth;
}
