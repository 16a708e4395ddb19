import type { DiffBlock, DocumentDiff, WorkflowBlock, WorkflowDocument, WorkflowEdge } from "@/contract";

/** Parts of a block that change nothing it does: where it sits and how large it is drawn. */
const LAYOUT_ONLY = new Set<keyof WorkflowBlock>(["position", "size"]);

/** Order-independent JSON: two objects with the same keys and values in another order are equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

const named = (block: WorkflowBlock): DiffBlock => ({ id: block.id, name: block.name, type: block.type });

/** The fields of a block that differ: `config.<key>` for each config entry, the block's own fields by name. */
function changedFields(before: WorkflowBlock, after: WorkflowBlock): string[] {
  const fields: string[] = [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)] as (keyof WorkflowBlock)[]);
  for (const key of [...keys].sort()) {
    if (LAYOUT_ONLY.has(key) || key === "config") continue;
    if (!same(before[key], after[key])) fields.push(key);
  }
  const configKeys = new Set([...Object.keys(before.config ?? {}), ...Object.keys(after.config ?? {})]);
  for (const key of [...configKeys].sort()) {
    if (!same(before.config?.[key], after.config?.[key])) fields.push(`config.${key}`);
  }
  return fields;
}

/** An edge by what it connects, so an edge re-made with a new id is not counted as removed and added. */
const edgeKey = (edge: WorkflowEdge) =>
  canonical([edge.source, edge.sourceHandle ?? null, edge.target, edge.targetHandle ?? null]);

/**
 * What changed from `before` to `after` in terms a person reads: blocks added, removed and changed
 * (with the fields that differ), edges added and removed, and the other top-level parts. Moving a
 * block on the canvas is not a change.
 */
export function diffDocuments(before: WorkflowDocument, after: WorkflowDocument): DocumentDiff {
  const beforeBlocks = new Map(before.blocks.map((block) => [block.id, block]));
  const afterBlocks = new Map(after.blocks.map((block) => [block.id, block]));
  const blocksChanged: DocumentDiff["blocksChanged"] = [];
  for (const [id, block] of afterBlocks) {
    const earlier = beforeBlocks.get(id);
    if (!earlier) continue;
    const fields = changedFields(earlier, block);
    if (fields.length > 0) blocksChanged.push({ ...named(block), fields });
  }
  const beforeEdges = new Set(before.edges.map(edgeKey));
  const afterEdges = new Set(after.edges.map(edgeKey));
  const otherChanges = (["name", "description", "variables", "settings"] as const).filter(
    (part) => !same(before[part] ?? null, after[part] ?? null),
  );
  return {
    blocksAdded: after.blocks.filter((block) => !beforeBlocks.has(block.id)).map(named),
    blocksRemoved: before.blocks.filter((block) => !afterBlocks.has(block.id)).map(named),
    blocksChanged,
    edgesAdded: [...afterEdges].filter((key) => !beforeEdges.has(key)).length,
    edgesRemoved: [...beforeEdges].filter((key) => !afterEdges.has(key)).length,
    otherChanges,
  };
}
