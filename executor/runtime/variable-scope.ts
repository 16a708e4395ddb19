import type { GraphNode, GraphScope } from "../graph";

/**
 * Workflow variables as one scope run sees them (docs/CONTRACT.md section 2, "Set Variables").
 *
 * A block reads the scope's starting values with the assignments of the blocks upstream of it in
 * the same scope (reachable backwards through its incoming edges) laid over them: a Set Variables
 * block's own assignments, or a loop container's carried assignments. Blocks that are not upstream
 * (concurrent siblings, other branches) never change what a block reads, and every upstream block
 * has settled before a block starts, so what it reads does not depend on timing. When several
 * upstream blocks assign one name, they apply in the scope's topological order (a block after
 * everything upstream of it; independent blocks in the order of the document's blocks list), so
 * the later one wins.
 */
export class VariableScope {
  private readonly assigned = new Map<string, Readonly<Record<string, unknown>>>();

  constructor(
    readonly scope: GraphScope,
    readonly start: Readonly<Record<string, unknown>>,
  ) {}

  /** Records what a block that completed in this scope assigned. */
  record(node: GraphNode, values: Readonly<Record<string, unknown>>): void {
    this.assigned.set(node.id, values);
  }

  /** What `<variable.…>` reads for a block of this scope. */
  visibleTo(node: GraphNode): Readonly<Record<string, unknown>> {
    if (this.assigned.size === 0) return this.start;
    const upstream = upstreamOf(node);
    return this.apply(this.start, (candidate) => upstream.has(candidate));
  }

  /** Every assignment made in this scope, in topological order (what a loop iteration carries to the next). */
  assignments(): Record<string, unknown> {
    return this.apply({}, () => true);
  }

  private apply(
    over: Readonly<Record<string, unknown>>,
    include: (node: GraphNode) => boolean,
  ): Record<string, unknown> {
    const result: Record<string, unknown> = { ...over };
    for (const node of topologicalOrder(this.scope)) {
      const values = this.assigned.get(node.id);
      if (values && include(node)) Object.assign(result, values);
    }
    return result;
  }
}

const upstreamCache = new WeakMap<GraphNode, ReadonlySet<GraphNode>>();

/** The blocks of a node's scope from which an edge path leads to it (a container's body edges start outside the scope). */
function upstreamOf(node: GraphNode): ReadonlySet<GraphNode> {
  const cached = upstreamCache.get(node);
  if (cached) return cached;
  const found = new Set<GraphNode>();
  const work = [node];
  while (work.length > 0) {
    for (const edge of work.pop()!.inEdges) {
      const source = edge.source;
      if (source.scope !== node.scope || found.has(source)) continue;
      found.add(source);
      work.push(source);
    }
  }
  upstreamCache.set(node, found);
  return found;
}

const orderCache = new WeakMap<GraphScope, ReadonlyArray<GraphNode>>();

/** Kahn's order of a scope's blocks; among blocks ready together, the one earlier in the document first. */
function topologicalOrder(scope: GraphScope): ReadonlyArray<GraphNode> {
  const cached = orderCache.get(scope);
  if (cached) return cached;
  const waiting = new Map<GraphNode, number>();
  for (const node of scope.nodes) waiting.set(node, node.inEdges.filter((edge) => edge.source.scope === scope).length);
  const ready = scope.nodes.filter((node) => waiting.get(node) === 0);
  const order: GraphNode[] = [];
  while (ready.length > 0) {
    ready.sort((left, right) => left.documentIndex - right.documentIndex);
    const node = ready.shift()!;
    order.push(node);
    for (const edge of node.outEdges) {
      const remaining = waiting.get(edge.target)! - 1;
      waiting.set(edge.target, remaining);
      if (remaining === 0) ready.push(edge.target);
    }
  }
  orderCache.set(scope, order);
  return order;
}
