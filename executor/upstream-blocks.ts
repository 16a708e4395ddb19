import type { WorkflowBlock, WorkflowEdge } from "@/contract";

/**
 * Which blocks a block may reference, for the editor's reference completion. Works on the
 * document as it is being edited (unfinished, possibly invalid), so it follows every edge rather
 * than only the ones validation accepted.
 */

function incomingSources(edges: ReadonlyArray<Pick<WorkflowEdge, "source" | "target">>): Map<string, string[]> {
  const incoming = new Map<string, string[]>();
  for (const edge of edges) {
    const list = incoming.get(edge.target);
    if (list) list.push(edge.source);
    else incoming.set(edge.target, [edge.source]);
  }
  return incoming;
}

/**
 * The blocks whose outputs a block may reference: everything with a path to it, and for a block
 * inside a container, everything upstream of that container too.
 */
export function upstreamBlocks(
  blocks: ReadonlyArray<WorkflowBlock>,
  edges: ReadonlyArray<Pick<WorkflowEdge, "source" | "target">>,
  blockId: string,
): WorkflowBlock[] {
  const incoming = incomingSources(edges);
  const byId = new Map(blocks.map((block) => [block.id, block]));
  const found = new Set<string>();
  const stack: string[] = [];
  const enqueueFrom = (id: string) => {
    for (const source of incoming.get(id) ?? []) stack.push(source);
    const parentId = byId.get(id)?.parentId;
    if (parentId) stack.push(...(incoming.get(parentId) ?? []));
  };
  enqueueFrom(blockId);
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (found.has(id) || id === blockId) continue;
    found.add(id);
    enqueueFrom(id);
  }
  const containers = new Set(enclosingContainers(blocks, blockId).map((container) => container.id));
  // A container's own results are not available inside it.
  return blocks.filter((block) => found.has(block.id) && !containers.has(block.id));
}

/** The containers a block sits in, innermost first: they provide `<loop.index>` and the like. */
export function enclosingContainers<Block extends Pick<WorkflowBlock, "id" | "parentId">>(
  blocks: ReadonlyArray<Block>,
  blockId: string,
): Block[] {
  const byId = new Map(blocks.map((block) => [block.id, block]));
  const result: Block[] = [];
  const seen = new Set<string>([blockId]);
  let current = byId.get(blockId);
  while (current?.parentId && !seen.has(current.parentId)) {
    const parent = byId.get(current.parentId);
    if (!parent) break;
    seen.add(parent.id);
    result.push(parent);
    current = parent;
  }
  return result;
}
