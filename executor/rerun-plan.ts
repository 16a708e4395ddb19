import type { WorkflowBlock, WorkflowEdge } from "@/contract";
import { enclosingContainers } from "./upstream-blocks";

/** Which blocks a run from a block executes, and which take the earlier run's results instead. */
export interface RerunPlan {
  /**
   * The block the run goes from: the chosen one, or for a block inside a loop or parallel its
   * outermost container (an iteration cannot start halfway, and the container's iterations feed
   * each other), so the whole container runs again.
   */
  fromBlockId: string;
  /** The blocks that execute: the one it goes from, everything after it, and every block inside those. */
  executes: ReadonlySet<string>;
  /** Whether a checkpoint key (`block`, `block@iteration`, `block~attempt`) of the earlier run may stand in for its block. */
  reuses(key: string): boolean;
}

/** The block id of a checkpoint key (executor/runtime/checkpoints.ts `checkpointKey`). */
function blockOfKey(key: string): string {
  const match = /^(.*?)(?:@\d+(?:\.\d+)*)?(?:~\d+)?$/.exec(key);
  return match ? match[1]! : key;
}

/**
 * Plans a run from `blockId` on a workflow's current blocks and edges; null when the block is not
 * one of them. Blocks of the earlier run that the document no longer has are not reused (nothing
 * would read them); every other block that neither is the starting block nor comes after it
 * (following every edge, whatever its handle) reuses its earlier result, even if its config
 * changed since: the run repeats what follows the chosen block, not what comes before it.
 */
export function rerunPlan(
  blocks: ReadonlyArray<Pick<WorkflowBlock, "id" | "parentId">>,
  edges: ReadonlyArray<Pick<WorkflowEdge, "source" | "target">>,
  blockId: string,
): RerunPlan | null {
  if (!blocks.some((block) => block.id === blockId)) return null;
  const fromBlockId = enclosingContainers(blocks, blockId).at(-1)?.id ?? blockId;
  const outgoing = new Map<string, string[]>();
  for (const edge of edges) outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge.target]);
  const children = new Map<string, string[]>();
  for (const block of blocks)
    if (block.parentId) children.set(block.parentId, [...(children.get(block.parentId) ?? []), block.id]);
  const executes = new Set<string>();
  const stack = [fromBlockId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (executes.has(id)) continue;
    executes.add(id);
    stack.push(...(outgoing.get(id) ?? []), ...(children.get(id) ?? []));
  }
  const known = new Set(blocks.map((block) => block.id));
  return {
    fromBlockId,
    executes,
    reuses(key) {
      const id = blockOfKey(key);
      return known.has(id) && !executes.has(id);
    },
  };
}
