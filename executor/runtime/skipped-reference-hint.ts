import type { GraphNode } from "../graph";
import { formatPath, type BlockReference } from "../reference-syntax";
import type { OutputStore } from "./output-store";

/**
 * How to fix a reference to a block that was skipped: name the blocks that ran in its place (on
 * another branch of the same router, condition or error edge) as `??` alternatives. Only computed
 * when such a reference fails, so the graph walks cost nothing on a normal run.
 */

/** Blocks with a path to `node`, within its scope and, from inside a container, the container's own upstream. */
function ancestors(node: GraphNode): Set<GraphNode> {
  const found = new Set<GraphNode>();
  const stack: GraphNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const sources = current.inEdges.map((edge) => edge.source);
    if (current.scope.container) sources.push(current.scope.container);
    for (const source of sources) {
      if (found.has(source) || source === node) continue;
      found.add(source);
      stack.push(source);
    }
  }
  return found;
}

function descendants(node: GraphNode): Set<GraphNode> {
  const found = new Set<GraphNode>();
  const stack: GraphNode[] = [node];
  while (stack.length > 0) {
    for (const edge of stack.pop()!.outEdges) {
      if (found.has(edge.target)) continue;
      found.add(edge.target);
      stack.push(edge.target);
    }
  }
  return found;
}

/** The blocks that ran instead of `skipped` and that `reader` can see, the ones of the same type first. */
export function blocksThatRanInstead(store: OutputStore, skipped: GraphNode, reader: GraphNode): GraphNode[] {
  const ran = (node: GraphNode) => store.get(node.id)?.kind === "output";
  // A decider ran but left some of its edges untaken: a router, a condition, a block with an error edge.
  const deciders = [...ancestors(skipped)].filter(
    (node) => ran(node) && node.outEdges.some((edge) => store.get(edge.target.id)?.kind === "skipped"),
  );
  if (deciders.length === 0) return [];
  const afterDecider = new Set(deciders.flatMap((decider) => [...descendants(decider)]));
  const related = new Set([...ancestors(skipped), ...descendants(skipped)]);
  const candidates = [...ancestors(reader)].filter((node) => ran(node) && afterDecider.has(node) && !related.has(node));
  const sameType = candidates.filter((node) => node.info.type === skipped.info.type);
  return (sameType.length > 0 ? sameType : candidates).sort((a, b) => a.documentIndex - b.documentIndex).slice(0, 3);
}

/** The sentence appended to "block X was skipped ... so it has no output". */
export function skippedReferenceHint(
  store: OutputStore,
  skipped: GraphNode,
  reader: GraphNode | null,
  reference: BlockReference,
): string {
  const path = formatPath(reference.path);
  const instead = reader ? blocksThatRanInstead(store, skipped, reader) : [];
  if (instead.length > 0) {
    const alternatives = [reference.root, ...instead.map((node) => node.name)]
      .map((root) => `${root}${path.startsWith("[") ? "" : "."}${path}`)
      .join(" ?? ");
    return `; to read whichever branch ran, write <${alternatives}>`;
  }
  return `; to use it only when it ran, give a fallback: <${reference.root}${path.startsWith("[") ? "" : "."}${path} ?? "default">`;
}
