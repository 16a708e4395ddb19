import type { IssueDetail } from "@/contract";
import { blockLabel } from "./graph";
import type { BlockEntry, EdgeEntry, WorkflowAnalysis } from "./workflow-analysis";

/**
 * Retry cycles (an extension, from the MCP-bridge seed's reroute rules): an edge with a cap
 * (`maxRetries`) may go back from a block to an earlier one of its scope, so "lint, fix, lint
 * again, at most 3 times" is drawn as it is thought. The blocks on the paths from the edge's
 * target (the cycle's head) to its source (the tail) are the cycle; each run of them is a pass.
 *
 * Rules that keep a pass well defined, each refused at save with a message naming the blocks:
 * the edge must really go back (its target leads to its source); a cycle is entered only at its
 * head, so every pass starts from one block; cycles do not share blocks; a loop or parallel
 * container, or an ask, cannot be inside one (put the retry cycle inside the container instead).
 */

export interface RetryCycleEntry {
  edge: EdgeEntry;
  head: BlockEntry;
  tail: BlockEntry;
  /** The blocks on a path from the head to the tail, both included. */
  blocks: Set<BlockEntry>;
}

function cycleName(edge: EdgeEntry): string {
  return `${blockLabel(edge.source.block)} -> ${blockLabel(edge.target.block)}`;
}

function walk(from: BlockEntry, next: ReadonlyMap<BlockEntry, ReadonlyArray<BlockEntry>>): Set<BlockEntry> {
  const seen = new Set<BlockEntry>([from]);
  const queue = [from];
  for (let position = 0; position < queue.length; position += 1)
    for (const other of next.get(queue[position]!) ?? [])
      if (!seen.has(other)) {
        seen.add(other);
        queue.push(other);
      }
  return seen;
}

function adjacency(edges: ReadonlyArray<EdgeEntry>): {
  forward: Map<BlockEntry, BlockEntry[]>;
  backward: Map<BlockEntry, BlockEntry[]>;
} {
  const forward = new Map<BlockEntry, BlockEntry[]>();
  const backward = new Map<BlockEntry, BlockEntry[]>();
  for (const edge of edges) {
    if (edge.kind !== "flow" || edge.maxRetries !== null) continue;
    const after = forward.get(edge.source);
    if (after) after.push(edge.target);
    else forward.set(edge.source, [edge.target]);
    const before = backward.get(edge.target);
    if (before) before.push(edge.source);
    else backward.set(edge.target, [edge.source]);
  }
  return { forward, backward };
}

/** The retry cycles among `edges` (flow edges of one document), and why any of them is not allowed. */
export function findRetryCycles(edges: ReadonlyArray<EdgeEntry>): { cycles: RetryCycleEntry[]; issues: IssueDetail[] } {
  const cycles: RetryCycleEntry[] = [];
  const issues: IssueDetail[] = [];
  const retryEdges = edges.filter((edge) => edge.maxRetries !== null);
  if (retryEdges.length === 0) return { cycles, issues };
  const { forward, backward } = adjacency(edges);
  const owner = new Map<BlockEntry, EdgeEntry>();
  for (const edge of retryEdges) {
    const path = `edges[${edge.index}].maxRetries`;
    if (edge.kind !== "flow") {
      issues.push({
        path,
        message: `The edge ${cycleName(edge)} cannot go back for a retry: only an edge between blocks of one scope can carry maxRetries`,
      });
      continue;
    }
    const head = edge.target;
    const tail = edge.source;
    const afterHead = walk(head, forward);
    if (!afterHead.has(tail)) {
      issues.push({
        path,
        message: `The edge ${cycleName(edge)} has maxRetries but does not go back to an earlier block (${blockLabel(tail.block)} does not come after ${blockLabel(head.block)}); remove maxRetries`,
      });
      continue;
    }
    const beforeTail = walk(tail, backward);
    const blocks = new Set([...afterHead].filter((block) => beforeTail.has(block)));
    const cycle: RetryCycleEntry = { edge, head, tail, blocks };
    let valid = true;
    for (const block of blocks) {
      const shared = owner.get(block);
      if (shared) {
        issues.push({
          path,
          message: `The retry cycles ${cycleName(shared)} and ${cycleName(edge)} share block ${blockLabel(block.block)}; a block can be in one retry cycle only`,
        });
        valid = false;
        break;
      }
      if (block.info?.container || block.block.type === "ask") {
        const what = block.info?.container ? `the ${block.info.container} container` : "the ask";
        issues.push({
          path,
          message: `The retry cycle ${cycleName(edge)} cannot include ${what} ${blockLabel(block.block)}; put the retry cycle inside a container, or the ask before or after the cycle`,
        });
        valid = false;
        break;
      }
    }
    for (const entering of edges) {
      if (entering.kind !== "flow" || entering.maxRetries !== null) continue;
      if (entering.target === head || !blocks.has(entering.target) || blocks.has(entering.source)) continue;
      issues.push({
        path: `edges[${entering.index}]`,
        message: `The edge ${cycleName(entering)} enters the retry cycle ${cycleName(edge)} at ${blockLabel(entering.target.block)}; a retry cycle is entered only at its first block ${blockLabel(head.block)}`,
      });
      valid = false;
    }
    if (!valid) continue;
    for (const block of blocks) owner.set(block, edge);
    cycles.push(cycle);
  }
  return { cycles, issues };
}

/** The save-time issues of a document's retry edges (disabled blocks' edges included, as for the cycle rule). */
export function checkRetryCycles(analysis: WorkflowAnalysis): IssueDetail[] {
  return findRetryCycles([...analysis.edges, ...analysis.dormantEdges]).issues;
}
