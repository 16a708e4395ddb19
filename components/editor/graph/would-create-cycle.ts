/**
 * Whether adding the edge source -> target closes a cycle: true when source is already reachable
 * from target. Pure so the canvas can ask it on every hover while dragging a connection.
 */
export function wouldCreateCycle(edges: ReadonlyArray<{ source: string; target: string }>, source: string, target: string): boolean {
  if (source === target) return true;
  const outgoing = new Map<string, string[]>();
  for (const edge of edges) {
    const list = outgoing.get(edge.source);
    if (list) list.push(edge.target);
    else outgoing.set(edge.source, [edge.target]);
  }
  const stack = [target];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === source) return true;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const next of outgoing.get(current) ?? []) stack.push(next);
  }
  return false;
}
