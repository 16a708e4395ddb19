import type { IssueDetail } from "./errors";
import { blockLabel } from "./graph";
import type { BlockEntry, EdgeEntry, WorkflowAnalysis } from "./workflow-analysis";

function flowEdgesBySource(analysis: WorkflowAnalysis): Map<BlockEntry, EdgeEntry[]> {
  const bySource = new Map<BlockEntry, EdgeEntry[]>();
  for (const edge of analysis.edges) {
    if (edge.kind !== "flow") continue;
    const list = bySource.get(edge.source);
    if (list) list.push(edge);
    else bySource.set(edge.source, [edge]);
  }
  return bySource;
}

/**
 * Finds cycles among flow edges (iteratively, so long chains cannot overflow the stack). Repetition
 * belongs in a loop container, whose body is its own scope, so any cycle here is an error naming
 * the blocks around it.
 */
export function findCycles(analysis: WorkflowAnalysis): IssueDetail[] {
  const bySource = flowEdgesBySource(analysis);
  const state = new Map<BlockEntry, "visiting" | "done">();
  const issues: IssueDetail[] = [];
  for (const root of analysis.blocks) {
    if (!root.active || state.has(root)) continue;
    const stack: Array<{ entry: BlockEntry; next: number; via: EdgeEntry | null }> = [{ entry: root, next: 0, via: null }];
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
        const names = [...stack.slice(start).map((item) => blockLabel(item.entry.block)), blockLabel(edge.target.block)];
        issues.push({
          path: `edges[${edge.index}]`,
          message: `A cycle runs through ${names.join(" → ")}; repeat work with a loop container instead`,
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
