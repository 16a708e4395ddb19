import { lookupBlockType } from "@/blocks";
import { createConnectionChecker, type ConnectionCandidate, type ConnectionChecker } from "@/executor";
import { flowToDocument } from "./document-flow";
import type { EditorEdge, EditorNode, WorkflowMeta } from "./flow-types";

/**
 * Which connections the canvas lets the user draw: exactly those the server's save validation
 * accepts, because the executor's checker applies the validator's own rules.
 *
 * The store replaces its nodes and edges arrays on every change, so the pair of arrays names a
 * revision of the graph: the checker (one analysis of the document) is built the first time a
 * revision is asked about and reused for every hover after that. Weak maps let old revisions,
 * and the stores of closed editors, be collected.
 */

const checkers = new WeakMap<ReadonlyArray<EditorNode>, WeakMap<ReadonlyArray<EditorEdge>, ConnectionChecker>>();
/** The graph rules read no name, description or variables. */
const NO_META: WorkflowMeta = { name: "", description: "", variables: {} };

export function connectionCheckerFor(nodes: EditorNode[], edges: EditorEdge[]): ConnectionChecker {
  let byEdges = checkers.get(nodes);
  if (!byEdges) {
    byEdges = new WeakMap();
    checkers.set(nodes, byEdges);
  }
  let checker = byEdges.get(edges);
  if (!checker) {
    checker = createConnectionChecker(flowToDocument(NO_META, nodes, edges), lookupBlockType);
    byEdges.set(edges, checker);
  }
  return checker;
}

/** Why the connection may not be drawn, or null when it may. */
export function canvasConnectionProblem(
  nodes: EditorNode[],
  edges: EditorEdge[],
  connection: ConnectionCandidate,
): string | null {
  return connectionCheckerFor(nodes, edges).problem(connection);
}

/** The canvas's `isValidConnection`, without React so the parity test can call it. */
export function isValidCanvasConnection(
  nodes: EditorNode[],
  edges: EditorEdge[],
  connection: ConnectionCandidate,
): boolean {
  return canvasConnectionProblem(nodes, edges, connection) === null;
}
