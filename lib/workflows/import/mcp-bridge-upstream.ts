import type { BuiltEdge } from "./document-builder";

/**
 * At most this many earlier agents' results are quoted in one agent's prompt, beyond its own
 * dependencies. The bridge hands every agent the whole context (every earlier result); quoting
 * each earlier agent in each prompt made a chain of n agents a document of n² references (issue
 * 30: 31 KB of file became 6.6 MB). The seed's workflows have at most five agents, so they read
 * as before; a longer chain reads its dependencies and its nearest predecessors.
 */
export const MAX_QUOTED_RESULTS = 10;

/**
 * For each agent block, the agent blocks whose results its prompt quotes: every agent with a path
 * of edges to it that passes no other agent (its dependencies, through `when` gates and questions),
 * then further ones, nearest first, until MAX_QUOTED_RESULTS; in the file's order. Each search
 * stops once it has enough, so the work and the output grow with the file, not its square.
 */
export function quotedUpstream(
  edges: readonly BuiltEdge[],
  agentOrder: ReadonlyMap<string, number>,
  entryOf: ReadonlyMap<string, string>,
): Map<string, string[]> {
  const incoming = new Map<string, string[]>();
  for (const edge of edges) {
    const list = incoming.get(edge.target);
    if (list) list.push(edge.source);
    else incoming.set(edge.target, [edge.source]);
  }
  const quoted = new Map<string, string[]>();
  for (const [agentId, entryId] of entryOf) {
    const found: string[] = [];
    const seen = new Set<string>([agentId, entryId]);
    // Breadth first over the edges backwards; an agent found ends its own branch until the next ring.
    let ring = [entryId];
    let nextAgents: string[] = [];
    let direct = true;
    while (ring.length > 0 || nextAgents.length > 0) {
      while (ring.length > 0) {
        const next: string[] = [];
        for (const id of ring) {
          for (const source of incoming.get(id) ?? []) {
            if (seen.has(source)) continue;
            seen.add(source);
            if (agentOrder.has(source)) {
              if (!direct && found.length >= MAX_QUOTED_RESULTS) continue;
              found.push(source);
              nextAgents.push(source);
            } else next.push(source);
          }
        }
        ring = next;
      }
      direct = false;
      if (found.length >= MAX_QUOTED_RESULTS) break;
      ring = nextAgents;
      nextAgents = [];
    }
    quoted.set(
      agentId,
      found.sort((a, b) => agentOrder.get(a)! - agentOrder.get(b)!),
    );
  }
  return quoted;
}
