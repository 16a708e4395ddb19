import type { WorkflowBlock, WorkflowEdge } from "@/executor/document";

/**
 * The blocks whose outputs a block may reference: everything with a path to it, and for a block
 * inside a container, everything upstream of that container too.
 */
export function upstreamBlocks(blocks: ReadonlyArray<WorkflowBlock>, edges: ReadonlyArray<WorkflowEdge>, blockId: string): WorkflowBlock[] {
  const incoming = new Map<string, string[]>();
  for (const edge of edges) {
    const list = incoming.get(edge.target);
    if (list) list.push(edge.source);
    else incoming.set(edge.target, [edge.source]);
  }
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
  return blocks.filter((block) => found.has(block.id) && !isContainerOf(block, blockId, byId));
}

/** A container's own results are not available inside it. */
function isContainerOf(candidate: WorkflowBlock, blockId: string, byId: Map<string, WorkflowBlock>): boolean {
  let current = byId.get(blockId);
  while (current?.parentId) {
    if (current.parentId === candidate.id) return true;
    current = byId.get(current.parentId);
  }
  return false;
}

/** The containers a block sits in, innermost first: they provide `<loop.index>` and the like. */
export function enclosingContainers(blocks: ReadonlyArray<WorkflowBlock>, blockId: string): WorkflowBlock[] {
  const byId = new Map(blocks.map((block) => [block.id, block]));
  const result: WorkflowBlock[] = [];
  let current = byId.get(blockId);
  while (current?.parentId) {
    const parent = byId.get(current.parentId);
    if (!parent) break;
    result.push(parent);
    current = parent;
  }
  return result;
}
