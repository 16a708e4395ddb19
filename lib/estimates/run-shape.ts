import { edgeHandle, type WorkflowBlock, type WorkflowDocument, type WorkflowEdge } from "@/contract";
import { entryBlockOf, getBlockDefinition } from "@/blocks";

/**
 * The shape of a run as far as the graph tells before running: which blocks can run, which run
 * for sure, the exclusive branches of each router and condition, and the containers around each
 * block. Pure: the estimate's graph walk.
 */
export interface RunShape {
  /** Enabled blocks a run can reach from the start block. */
  reachable: ReadonlySet<string>;
  /** Blocks every run reaches (no router, condition, error or conditional edge on the way): the only ones in `low`. */
  certain: ReadonlySet<string>;
  /** Per router and condition: its branches, each the blocks only that branch reaches. */
  branches: ReadonlyMap<string, string[][]>;
  /** How likely a block runs when nothing is known of past runs: 1 / branches for each branching it sits in. */
  branchWeight(blockId: string): number;
  /** The loop and parallel containers around a block, innermost first. */
  containers(blockId: string): WorkflowBlock[];
  /** The blocks a block's `out` edges reach (a router's candidates). */
  outTargets(blockId: string): WorkflowBlock[];
}

type ShapeDocument = Pick<WorkflowDocument, "blocks" | "edges">;

function isBranching(block: WorkflowBlock): boolean {
  const routing = getBlockDefinition(block.type)?.routing;
  return routing === "route" || routing === "branch";
}

/** An edge every run takes once its source has run: `out` or `body` of a block that does not choose. */
function isCertainEdge(edge: WorkflowEdge, source: WorkflowBlock): boolean {
  const handle = edgeHandle(edge);
  return (handle === "out" || handle === "body") && !isBranching(source) && !edge.condition;
}

function closure(starts: Iterable<string>, next: (id: string) => string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...next(id));
  }
  return seen;
}

export function runShape(document: ShapeDocument): RunShape {
  const blocks = new Map(document.blocks.filter((block) => block.enabled !== false).map((block) => [block.id, block]));
  const outgoing = new Map<string, WorkflowEdge[]>();
  for (const edge of document.edges) {
    if (!blocks.has(edge.source) || !blocks.has(edge.target)) continue;
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge]);
  }
  const targetsOf = (id: string, keep: (edge: WorkflowEdge) => boolean = () => true) =>
    (outgoing.get(id) ?? []).filter(keep).map((edge) => edge.target);
  const start = entryBlockOf(blocks.values());
  const reachable = closure(start ? [start.id] : [], (id) => targetsOf(id));
  const certain = closure(start ? [start.id] : [], (id) =>
    targetsOf(id, (edge) => isCertainEdge(edge, blocks.get(id)!)),
  );

  const branches = new Map<string, string[][]>();
  const weights = new Map<string, number>();
  for (const block of blocks.values()) {
    if (!reachable.has(block.id) || !isBranching(block)) continue;
    const byHandle = new Map<string, string[]>();
    for (const edge of outgoing.get(block.id) ?? []) {
      const handle = edgeHandle(edge);
      if (handle === "error") continue;
      // A router's every `out` target is a branch of its own; a condition's branch is its handle.
      const key = getBlockDefinition(block.type)?.routing === "route" ? `target:${edge.target}` : handle;
      byHandle.set(key, [...(byHandle.get(key) ?? []), edge.target]);
    }
    const reaches = [...byHandle.values()].map((targets) => closure(targets, (id) => targetsOf(id)));
    const groups = reaches.map((reach, index) =>
      [...reach].filter((id) => reaches.every((other, otherIndex) => otherIndex === index || !other.has(id))),
    );
    branches.set(block.id, groups);
    for (const group of groups) for (const id of group) weights.set(id, (weights.get(id) ?? 1) / groups.length);
  }

  return {
    reachable,
    certain,
    branches,
    branchWeight: (blockId) => weights.get(blockId) ?? 1,
    containers(blockId) {
      const chain: WorkflowBlock[] = [];
      let parentId = blocks.get(blockId)?.parentId;
      while (parentId) {
        const parent = blocks.get(parentId);
        if (!parent) break;
        chain.push(parent);
        parentId = parent.parentId;
      }
      return chain;
    },
    outTargets: (blockId) => targetsOf(blockId, (edge) => edgeHandle(edge) === "out").map((id) => blocks.get(id)!),
  };
}

/**
 * The worst case of a set of block figures: everything, less for each router and condition all its
 * branches but the most expensive one (nested branchings counted inside the branch that holds them).
 */
export function worstCaseTotal(
  shape: RunShape,
  highOf: (blockId: string) => number,
  blockIds: Iterable<string>,
): number {
  const reductions = new Map<string, number>();
  const reduction = (branching: string): number => {
    const known = reductions.get(branching);
    if (known !== undefined) return known;
    const values = (shape.branches.get(branching) ?? []).map((group) =>
      group.reduce((sum, id) => sum + highOf(id) - (shape.branches.has(id) ? reduction(id) : 0), 0),
    );
    const result = values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) - Math.max(...values);
    reductions.set(branching, result);
    return result;
  };
  let total = 0;
  for (const id of blockIds) total += highOf(id);
  for (const branching of shape.branches.keys()) total -= reduction(branching);
  return total;
}
