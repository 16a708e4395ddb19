import { blockSchema, edgeSchema, normalizeBlockName, type WorkflowBlock, type WorkflowEdge } from "@/contract";
import { z } from "zod";
import { uniqueBlockId, uniqueBlockName, uniqueEdgeId } from "./block-naming";
import { renameReferenceRoots } from "./rename-references";

/**
 * What copy puts on the clipboard: plain JSON, so blocks travel between workflows, tabs and
 * even a text editor. The marker keeps random clipboard text from being pasted as blocks.
 */
export const CLIPBOARD_MARKER = "trellis/blocks@1";

const payloadSchema = z.object({
  kind: z.literal(CLIPBOARD_MARKER),
  blocks: z.array(blockSchema).min(1),
  edges: z.array(edgeSchema),
});

export type ClipboardPayload = z.infer<typeof payloadSchema>;

/** The selected blocks, the children of selected containers, and the edges among them. */
export function buildClipboardPayload(
  blocks: WorkflowBlock[],
  edges: WorkflowEdge[],
  selectedIds: ReadonlySet<string>,
): ClipboardPayload | null {
  const included = new Set(selectedIds);
  let grew = true;
  while (grew) {
    grew = false;
    for (const block of blocks) {
      if (block.parentId && included.has(block.parentId) && !included.has(block.id)) {
        included.add(block.id);
        grew = true;
      }
    }
  }
  const chosen = blocks.filter((block) => included.has(block.id));
  if (chosen.length === 0) return null;
  return {
    kind: CLIPBOARD_MARKER,
    blocks: chosen.map((block) => ({
      ...block,
      parentId: block.parentId && included.has(block.parentId) ? block.parentId : null,
    })),
    edges: edges.filter((edge) => included.has(edge.source) && included.has(edge.target)),
  };
}

export function parseClipboardText(text: string): ClipboardPayload | null {
  try {
    const parsed = payloadSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface PasteTarget {
  blockIds: ReadonlySet<string>;
  blockNames: Iterable<string>;
  edgeIds: ReadonlySet<string>;
}

/**
 * Gives pasted blocks fresh ids and names (so `Agent` pasted next to `Agent` becomes `Agent 2`),
 * rewires the pasted edges to the new ids, points references among the pasted blocks at the
 * copies (by their new names or ids) and moves top-level blocks by `offset`. References to blocks
 * left behind are kept as written: in the same workflow they still reach the originals.
 */
export function preparePaste(
  payload: ClipboardPayload,
  target: PasteTarget,
  offset: { x: number; y: number },
): { blocks: WorkflowBlock[]; edges: WorkflowEdge[] } {
  const ids = new Set(target.blockIds);
  const names = [...target.blockNames];
  const idMap = new Map<string, string>();
  for (const block of payload.blocks) {
    const id = ids.has(block.id) ? uniqueBlockId(block.type, ids) : block.id;
    ids.add(id);
    idMap.set(block.id, id);
  }
  const renamed = payload.blocks.map((block) => {
    const name = uniqueBlockName(block.name, names);
    names.push(name);
    return { block, name };
  });
  // Ids first, names after: a root that is both one block's id and another's name means the name.
  const roots = new Map<string, string>();
  for (const [from, to] of idMap) if (from !== to) roots.set(normalizeBlockName(from), to);
  for (const { block, name } of renamed) {
    if (name !== block.name) roots.set(normalizeBlockName(block.name), name);
    else roots.delete(normalizeBlockName(block.name));
  }
  const blocks = renamed.map(({ block, name }) => {
    const parentId = block.parentId ? (idMap.get(block.parentId) ?? null) : null;
    const position = parentId ? block.position : { x: block.position.x + offset.x, y: block.position.y + offset.y };
    return {
      ...block,
      id: idMap.get(block.id)!,
      name,
      parentId,
      position,
      config: renameReferenceRoots(block.config, roots),
    };
  });
  const edgeIds = new Set(target.edgeIds);
  const edges = payload.edges.map((edge) => {
    const id = uniqueEdgeId(edgeIds);
    edgeIds.add(id);
    return { ...edge, id, source: idMap.get(edge.source)!, target: idMap.get(edge.target)! };
  });
  return { blocks, edges };
}
