import type { IssueDetail } from "@/contract";
import { blockLabel } from "./graph";
import type { BlockEntry, EdgeEntry, WorkflowAnalysis } from "./workflow-analysis";

/** Repetition belongs in a loop container, whose body is its own scope; said wherever a cycle is refused. */
const CYCLE_HINT = "repeat work with a loop container instead, or give the edge that goes back a cap (maxRetries)";

/**
 * The edges the no-cycle rule applies to: flow edges between blocks of one scope, enabled or not
 * (a disabled block may be enabled again). Body and iteration-end edges enter and leave a
 * container's own scope, which repeats by design. A retry edge (one with `maxRetries`) may go back:
 * its cap bounds the cycle it closes (retry-cycles.ts).
 */
export function cycleRuleEdges(analysis: WorkflowAnalysis): EdgeEntry[] {
  return [...analysis.edges, ...analysis.dormantEdges].filter(
    (edge) => edge.kind === "flow" && edge.maxRetries === null,
  );
}

function flowEdgesBySource(analysis: WorkflowAnalysis): Map<BlockEntry, EdgeEntry[]> {
  const bySource = new Map<BlockEntry, EdgeEntry[]>();
  for (const edge of cycleRuleEdges(analysis)) {
    const list = bySource.get(edge.source);
    if (list) list.push(edge);
    else bySource.set(edge.source, [edge]);
  }
  return bySource;
}

/** Each block's flow predecessors, for walking the cycle rule's edges backwards. */
export function flowPredecessors(analysis: WorkflowAnalysis): Map<BlockEntry, BlockEntry[]> {
  const byTarget = new Map<BlockEntry, BlockEntry[]>();
  for (const edge of cycleRuleEdges(analysis)) {
    const list = byTarget.get(edge.target);
    if (list) list.push(edge.source);
    else byTarget.set(edge.target, [edge.source]);
  }
  return byTarget;
}

/**
 * Every block with a flow path to `block`, each mapped to the next block on a shortest such path.
 * An edge from `block` to any of them would close a cycle, and following the map from it spells
 * the cycle out. One walk over the blocks upstream of `block`.
 */
export function flowPathsInto(
  block: BlockEntry,
  predecessors: ReadonlyMap<BlockEntry, ReadonlyArray<BlockEntry>>,
): Map<BlockEntry, BlockEntry> {
  const next = new Map<BlockEntry, BlockEntry>();
  const queue = [block];
  for (let position = 0; position < queue.length; position += 1) {
    const current = queue[position]!;
    for (const previous of predecessors.get(current) ?? []) {
      if (previous === block || next.has(previous)) continue;
      next.set(previous, current);
      queue.push(previous);
    }
  }
  return next;
}

/** `'a' → 'b' → 'a'`: the blocks around a cycle, the first repeated at the end. */
export function describeCycle(blocks: ReadonlyArray<BlockEntry>): string {
  return blocks.map((entry) => blockLabel(entry.block)).join(" → ");
}

export function cycleMessage(blocks: ReadonlyArray<BlockEntry>): string {
  return `A cycle runs through ${describeCycle(blocks)}; ${CYCLE_HINT}`;
}

/** Why an edge from `source` to `target` may not be drawn when `target` already leads back to `source`. */
export function closingCycleMessage(blocks: ReadonlyArray<BlockEntry>): string {
  const [source, target] = blocks;
  return `Connecting ${blockLabel(source!.block)} to ${blockLabel(target!.block)} would close a cycle (${describeCycle(blocks)}); ${CYCLE_HINT}`;
}

/**
 * Finds cycles among the cycle rule's edges (iteratively, so long chains cannot overflow the
 * stack); each is an error naming the blocks around it.
 */
export function findCycles(analysis: WorkflowAnalysis): IssueDetail[] {
  const bySource = flowEdgesBySource(analysis);
  const state = new Map<BlockEntry, "visiting" | "done">();
  const issues: IssueDetail[] = [];
  for (const root of analysis.blocks) {
    if (state.has(root)) continue;
    const stack: Array<{ entry: BlockEntry; next: number; via: EdgeEntry | null }> = [
      { entry: root, next: 0, via: null },
    ];
    state.set(root, "visiting");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const edges = bySource.get(frame.entry) ?? [];
      const edge = edges[frame.next];
      if (!edge) {
        state.set(frame.entry, "done");
        stack.pop();
        continue;
      }
      frame.next += 1;
      const targetState = state.get(edge.target);
      if (targetState === undefined) {
        state.set(edge.target, "visiting");
        stack.push({ entry: edge.target, next: 0, via: edge });
      } else if (targetState === "visiting") {
        const start = stack.findIndex((item) => item.entry === edge.target);
        issues.push({
          path: `edges[${edge.index}]`,
          message: cycleMessage([...stack.slice(start).map((item) => item.entry), edge.target]),
        });
      }
    }
  }
  return issues;
}

/** Active blocks reachable from the start block through flow edges and container body edges. */
export function findReachable(analysis: WorkflowAnalysis): Set<BlockEntry> {
  const reachable = new Set<BlockEntry>();
  if (!analysis.entry) return reachable;
  const outgoing = new Map<BlockEntry, BlockEntry[]>();
  for (const edge of analysis.edges) {
    if (edge.kind === "iterationEnd") continue;
    const list = outgoing.get(edge.source);
    if (list) list.push(edge.target);
    else outgoing.set(edge.source, [edge.target]);
  }
  const queue = [analysis.entry];
  reachable.add(analysis.entry);
  for (let index = 0; index < queue.length; index += 1) {
    for (const next of outgoing.get(queue[index]!) ?? []) {
      if (reachable.has(next)) continue;
      reachable.add(next);
      queue.push(next);
    }
  }
  return reachable;
}
