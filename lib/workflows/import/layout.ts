import type { BuiltBlock, BuiltEdge } from "./document-builder";

const COLUMN = 300;
const ROW = 170;
/** Room inside a container above and left of its first block (its header and handles). */
const INSET = { x: 60, y: 90 };
const CONTAINER_TYPES = new Set(["loop", "parallel"]);

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
    scopes.set(scope, [...(scopes.get(scope) ?? []), block]);
  }
  const sizeOf = (block: BuiltBlock) => block.size ?? { width: 240, height: 80 };

  const layScope = (scopeId: string | null) => {
    const members = scopes.get(scopeId) ?? [];
    for (const member of members) if (CONTAINER_TYPES.has(member.type)) layScope(member.id);
    const memberIds = new Set(members.map((member) => member.id));
    const inScope = edges.filter((edge) => edge.sourceHandle !== "body" && memberIds.has(edge.source) && memberIds.has(edge.target));
    const depth = depths(members, inScope);
    const rows = new Map<number, number>();
    const columnWidth = new Map<number, number>();
    for (const member of members) {
      const column = depth.get(member.id) ?? 0;
      columnWidth.set(column, Math.max(columnWidth.get(column) ?? COLUMN, sizeOf(member).width + 60));
    }
    const columnX = (column: number) => {
      let x = scopeId ? INSET.x : 0;
      for (let index = 0; index < column; index += 1) x += columnWidth.get(index) ?? COLUMN;
      return x;
    };
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
        const right = Math.max(...members.map((member) => member.position!.x + sizeOf(member).width), 300);
        const bottom = Math.max(...members.map((member) => member.position!.y + sizeOf(member).height), 120);
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
  for (const edge of edges) incoming.set(edge.target, [...(incoming.get(edge.target) ?? []), edge.source]);
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    const sources = incoming.get(id) ?? [];
    const value = sources.length === 0 ? 0 : Math.max(...sources.map(visit)) + 1;
    visiting.delete(id);
    depth.set(id, value);
    return value;
  };
  for (const member of members) visit(member.id);
  return depth;
}
