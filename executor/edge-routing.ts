import type { WorkflowBlock } from "@/contract";
import type { BlockTypeInfo } from "./block-type";
import type { EdgeCondition } from "./edge-condition";
import { BlockExecutionError } from "@/core";
import { ExpressionError, evaluateNode, isTruthy } from "./expression";

/**
 * Which outgoing edges a finished block activates: the engine routes by it and the canvas draws a
 * run's path by it, so the two cannot disagree. An edge is active when its handle is one the
 * outcome leaves by and its condition, if any, holds over the source's output.
 */

/** What routing reads of an edge (a GraphEdge is one). */
export interface RoutedEdge {
  handle: string;
  target: { id: string };
  condition: EdgeCondition | null;
}

type RoutingInfo = Pick<BlockTypeInfo, "routing" | "takenHandles">;

/** Whether a successful output leaves by `edge`'s handle (conditions aside). */
export function handleTaken(
  info: RoutingInfo,
  block: WorkflowBlock,
  output: Readonly<Record<string, unknown>>,
): (edge: Omit<RoutedEdge, "condition">) => boolean {
  const routing = info.routing ?? "all";
  if (routing === "branch") {
    const selected = typeof output.selectedBranch === "string" ? `branch:${output.selectedBranch}` : null;
    return (edge) => edge.handle === selected;
  }
  if (routing === "route") return (edge) => edge.handle === "out" && edge.target.id === output.selectedRoute;
  const taken = info.takenHandles ? info.takenHandles(block, output) : null;
  return taken ? (edge) => taken.includes(edge.handle) : (edge) => edge.handle === "out";
}

/** Names the edge in messages: `'Linter' -> 'Fix Lint'`. */
export type EdgeNamer<E extends RoutedEdge> = (edge: E) => string;

/** Evaluates an edge's condition over its source's output; an error names the edge and says why. */
export function conditionHolds<E extends RoutedEdge>(edge: E, output: unknown, name: EdgeNamer<E>): boolean {
  if (!edge.condition) return true;
  try {
    return isTruthy(evaluateNode(edge.condition.node, { output: output ?? null }));
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error;
    throw new BlockExecutionError(
      `The condition of the edge ${name(edge)} (${JSON.stringify(edge.condition.text)}) could not be evaluated: ${error.message}`,
      {
        code: "invalid_expression",
      },
    );
  }
}

/** One flag per edge, in order: whether a successful output activates it. Throws when a condition cannot be evaluated. */
export function routeOutput<E extends RoutedEdge>(
  info: RoutingInfo,
  block: WorkflowBlock,
  output: Readonly<Record<string, unknown>>,
  edges: ReadonlyArray<E>,
  name: EdgeNamer<E>,
): boolean[] {
  const routes = new Array<boolean>(edges.length);
  // The common case, every `out` edge: no predicate to make per block.
  const taken =
    info.routing === "branch" || info.routing === "route" || info.takenHandles
      ? handleTaken(info, block, output)
      : null;
  for (let index = 0; index < edges.length; index += 1) {
    const edge = edges[index]!;
    routes[index] = (taken ? taken(edge) : edge.handle === "out") && conditionHolds(edge, output, name);
  }
  return routes;
}

/** One flag per edge: whether a handled failure (output `{ error }`) activates it. */
export function routeFailure<E extends RoutedEdge>(
  output: Readonly<Record<string, unknown>>,
  edges: ReadonlyArray<E>,
  name: EdgeNamer<E>,
): boolean[] {
  return edges.map((edge) => edge.handle === "error" && conditionHolds(edge, output, name));
}
