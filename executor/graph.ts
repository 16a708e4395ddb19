import type { BlockTypeInfo } from "./block-type";
import type { EdgeCondition } from "./edge-condition";
import type { WorkflowBlock, WorkflowDocument } from "@/contract";

/**
 * The validated, compiled form of a workflow document that the engine runs. Only enabled blocks
 * reachable from the start block are in it; adjacency is precomputed so a run never scans the
 * document.
 */

export interface GraphEdge {
  id: string;
  /** Index of the edge in the document's `edges`, for error paths. */
  documentIndex: number;
  source: GraphNode;
  target: GraphNode;
  /** `out`, `error`, `branch:<id>`, `body`, or a handle its block type declares (`tool:<name>:success`). */
  handle: string;
  /** Taken only when this holds over the source's output (parsed once, when the graph is built). */
  condition: EdgeCondition | null;
  /** The cycle this edge closes, when it is a retry edge (it goes back to the cycle's head; not in the head's `inEdges`). */
  retry: RetryCycle | null;
  /** The cycle this edge leaves (its source is in it, its target not): decided when the cycle's last pass ends. */
  leaves: RetryCycle | null;
}

/**
 * A retry cycle (retry-cycles.ts): the blocks from `head` to `tail` run again, as a new pass, each
 * time the retry edge from the tail back to the head is taken, at most `maxRetries` times.
 */
export interface RetryCycle {
  /** Position in its scope's `retryCycles`; indexes the per-run pass state of the scope. */
  index: number;
  edge: GraphEdge;
  head: GraphNode;
  tail: GraphNode;
  nodes: GraphNode[];
  maxRetries: number;
}

export interface GraphNode {
  id: string;
  name: string;
  normalizedName: string;
  block: WorkflowBlock;
  info: BlockTypeInfo;
  documentIndex: number;
  scope: GraphScope;
  /** Position in `scope.nodes`; indexes the per-run state arrays of its scope. */
  localIndex: number;
  /** Edges that can activate this block: from blocks in its scope, or its container's `body` edges. */
  inEdges: GraphEdge[];
  /** Edges to blocks in the same scope (a container's `body` edges are in `bodyEdges`). */
  outEdges: GraphEdge[];
  /** A container's edges to the first blocks inside it. */
  bodyEdges: GraphEdge[];
  /** The blocks inside a loop or parallel container. */
  body: GraphScope | null;
  /** Targets of the `out` edges, for routers. */
  outgoingTargets: WorkflowBlock[];
  hasErrorEdge: boolean;
  /** False when no config string can hold a reference: resolution is skipped. */
  hasReferences: boolean;
  /** The retry cycle the block is in; null for most blocks. */
  cycle: RetryCycle | null;
}

/** The top level of the workflow, or the inside of one container. */
export interface GraphScope {
  container: GraphNode | null;
  nodes: GraphNode[];
  /** 0 for the top level, 1 inside a container, and so on. */
  depth: number;
  /** Its retry cycles; usually none. */
  retryCycles: RetryCycle[];
}

export interface WorkflowGraph {
  document: WorkflowDocument;
  root: GraphScope;
  entry: GraphNode;
  /** Every node that can run, by block id. */
  nodesById: ReadonlyMap<string, GraphNode>;
  /** Every node that can run, by normalized name. */
  nodesByName: ReadonlyMap<string, GraphNode>;
  /** Enabled blocks not reachable from the start block (or from their container's body edges): never run. */
  unreachable: ReadonlyArray<WorkflowBlock>;
  /** Enabled and disabled blocks alike, by normalized name and by id, to explain references that cannot resolve. */
  allBlocksByName: ReadonlyMap<string, WorkflowBlock>;
  allBlocksById: ReadonlyMap<string, WorkflowBlock>;
}

export function blockLabel(block: Pick<WorkflowBlock, "name" | "id">): string {
  return `'${block.name}'`;
}

/** An edge as messages name it: `'Linter' -> 'Fix Lint'`. */
export function edgeLabel(edge: Pick<GraphEdge, "source" | "target">): string {
  return `${blockLabel(edge.source.block)} -> ${blockLabel(edge.target.block)}`;
}
