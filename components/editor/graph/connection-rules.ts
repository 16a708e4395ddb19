import { getBlockDefinition } from "@/blocks/definitions";
import { wouldCreateCycle } from "./would-create-cycle";

export interface GraphNodeFacts {
  id: string;
  type: string;
  parentId?: string | null;
}

export interface ConnectionAttempt {
  source: string;
  target: string;
  sourceHandle?: string | null;
}

/**
 * Why a connection may not be drawn, or null when it may. Blocks connect within one container
 * level; a container's `body` handle reaches only the blocks inside it.
 */
export function connectionProblem(
  nodes: ReadonlyMap<string, GraphNodeFacts>,
  edges: ReadonlyArray<{ source: string; target: string; sourceHandle?: string | null }>,
  attempt: ConnectionAttempt,
): string | null {
  const source = nodes.get(attempt.source);
  const target = nodes.get(attempt.target);
  if (!source || !target) return "unknown block";
  if (source.id === target.id) return "a block cannot connect to itself";
  const targetDefinition = getBlockDefinition(target.type);
  if (targetDefinition && !targetDefinition.acceptsInput) return `${targetDefinition.label} takes no input`;
  const handle = attempt.sourceHandle ?? "out";
  if (handle === "body") {
    if ((target.parentId ?? null) !== source.id) return "body connects to blocks inside the container";
  } else if ((source.parentId ?? null) !== (target.parentId ?? null)) {
    return "blocks connect only within the same container";
  }
  if (edges.some((edge) => edge.source === attempt.source && edge.target === attempt.target && (edge.sourceHandle ?? "out") === handle)) {
    return "already connected";
  }
  if (wouldCreateCycle(edges, attempt.source, attempt.target)) return "that would create a cycle";
  return null;
}
