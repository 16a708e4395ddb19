import type { BlockTypeLookup } from "./block-type";
import { checkConfigs } from "./config-checks";
import { type WorkflowBlock, type WorkflowDocument, type IssueDetail } from "@/contract";
import { GraphValidationError } from "@/core";
import type { GraphEdge, GraphNode, GraphScope, RetryCycle, WorkflowGraph } from "./graph";
import { findCycles, findReachable } from "./graph-cycles";
import { containsReferences } from "./references";
import { checkRetryCycles, findRetryCycles } from "./retry-cycles";
import { analyzeWorkflow, type BlockEntry, type WorkflowAnalysis } from "./workflow-analysis";

/**
 * From a workflow document to a validated graph. The same checks serve the API's save path
 * (`validateWorkflow`) and the start of every run (`buildGraph`), so both give the same messages.
 *
 * Reachability rule: an enabled block runs only if it can be reached from the start block
 * through edges (and, inside a container, from the container's `body` edges). Unreachable blocks
 * are not an error when saving (a workflow under construction often has them); they are left out
 * of the graph, never run and produce no events. Disabled blocks, and everything inside a
 * disabled container, are removed as if absent, together with their edges; those edges must still
 * follow the edge and cycle rules, so enabling a block again cannot make the workflow invalid.
 */

function inspect(
  document: WorkflowDocument,
  lookup: BlockTypeLookup,
): { analysis: WorkflowAnalysis; issues: IssueDetail[] } {
  const analysis = analyzeWorkflow(document, lookup);
  const issues = [
    ...analysis.issues,
    ...findCycles(analysis),
    ...checkRetryCycles(analysis),
    ...checkConfigs(analysis),
  ];
  return { analysis, issues };
}

/** Every problem in the document, each with a path (`blocks[3].config.model`, `edges[2].target`) and a message naming the blocks involved. */
export function validateWorkflow(document: WorkflowDocument, lookup: BlockTypeLookup): IssueDetail[] {
  return inspect(document, lookup).issues;
}

function createNode(entry: BlockEntry): GraphNode {
  return {
    id: entry.block.id,
    name: entry.block.name,
    normalizedName: entry.normalizedName,
    block: entry.block,
    info: entry.info!,
    documentIndex: entry.index,
    scope: undefined as unknown as GraphScope,
    localIndex: -1,
    inEdges: [],
    outEdges: [],
    bodyEdges: [],
    body: null,
    outgoingTargets: [],
    hasErrorEdge: false,
    hasReferences: containsReferences(entry.block.config),
    cycle: null,
  };
}

function placeInScope(node: GraphNode, nodes: Map<string, GraphNode>, root: GraphScope): GraphScope {
  if (node.scope) return node.scope;
  const parent = node.block.parentId ? nodes.get(node.block.parentId) : undefined;
  let scope = root;
  if (parent) {
    const parentScope = placeInScope(parent, nodes, root);
    parent.body ??= { container: parent, nodes: [], depth: parentScope.depth + 1, retryCycles: [] };
    scope = parent.body;
  }
  node.scope = scope;
  node.localIndex = scope.nodes.length;
  scope.nodes.push(node);
  return scope;
}

/** Marks each retry cycle's blocks, its edge back and the edges that leave it (the engine's per-pass bookkeeping). */
function compileRetryCycles(analysis: WorkflowAnalysis, nodesById: ReadonlyMap<string, GraphNode>): void {
  for (const entry of findRetryCycles(analysis.edges).cycles) {
    const head = nodesById.get(entry.head.block.id);
    const tail = nodesById.get(entry.tail.block.id);
    const edge = tail?.outEdges.find((candidate) => candidate.id === entry.edge.edge.id);
    if (!head || !tail || !edge) continue;
    const nodes = [...entry.blocks].flatMap((block) => nodesById.get(block.block.id) ?? []);
    const scope = head.scope;
    const cycle: RetryCycle = {
      index: scope.retryCycles.length,
      edge,
      head,
      tail,
      nodes,
      maxRetries: entry.edge.maxRetries!,
    };
    scope.retryCycles.push(cycle);
    edge.retry = cycle;
    for (const node of nodes) node.cycle = cycle;
    for (const node of nodes)
      for (const out of node.outEdges) if (out !== edge && out.target.cycle !== cycle) out.leaves = cycle;
  }
}

function compile(analysis: WorkflowAnalysis): WorkflowGraph {
  const reachable = findReachable(analysis);
  const root: GraphScope = { container: null, nodes: [], depth: 0, retryCycles: [] };
  const nodesById = new Map<string, GraphNode>();
  for (const entry of analysis.blocks) if (reachable.has(entry)) nodesById.set(entry.block.id, createNode(entry));
  for (const node of nodesById.values()) {
    placeInScope(node, nodesById, root);
    if (node.info.container) node.body ??= { container: node, nodes: [], depth: node.scope.depth + 1, retryCycles: [] };
  }
  for (const edgeEntry of analysis.edges) {
    const source = nodesById.get(edgeEntry.source.block.id);
    const target = nodesById.get(edgeEntry.target.block.id);
    if (!source || !target || edgeEntry.kind === "iterationEnd") continue;
    const edge: GraphEdge = {
      id: edgeEntry.edge.id,
      documentIndex: edgeEntry.index,
      source,
      target,
      handle: edgeEntry.handle,
      condition: edgeEntry.condition,
      retry: null,
      leaves: null,
    };
    // A retry edge does not hold its target back: the head runs once its other inputs are decided.
    if (edgeEntry.maxRetries === null) target.inEdges.push(edge);
    if (edgeEntry.kind === "body") {
      source.bodyEdges.push(edge);
      continue;
    }
    source.outEdges.push(edge);
    if (edge.handle === "error") source.hasErrorEdge = true;
    if (edge.handle === "out" && !source.outgoingTargets.includes(target.block))
      source.outgoingTargets.push(target.block);
  }
  compileRetryCycles(analysis, nodesById);
  const nodesByName = new Map<string, GraphNode>();
  for (const node of nodesById.values()) nodesByName.set(node.normalizedName, node);
  const allBlocksByName = new Map<string, WorkflowBlock>();
  const allBlocksById = new Map<string, WorkflowBlock>();
  for (const entry of analysis.blocks) {
    allBlocksByName.set(entry.normalizedName, entry.block);
    allBlocksById.set(entry.block.id, entry.block);
  }
  return {
    document: analysis.document,
    root,
    entry: nodesById.get(analysis.entry!.block.id)!,
    nodesById,
    nodesByName,
    unreachable: analysis.blocks.filter((entry) => entry.active && !reachable.has(entry)).map((entry) => entry.block),
    allBlocksByName,
    allBlocksById,
  };
}

/** Validates and compiles; throws GraphValidationError carrying every issue as `details`. */
export function buildGraph(document: WorkflowDocument, lookup: BlockTypeLookup): WorkflowGraph {
  const { analysis, issues } = inspect(document, lookup);
  if (issues.length > 0) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
    throw new GraphValidationError(`The workflow is invalid: ${issues[0]!.message}${more}`, issues);
  }
  return compile(analysis);
}

/** Class form of the builder for callers that hold one block registry. */
export class DAGBuilder {
  constructor(private readonly lookup: BlockTypeLookup) {}

  build(document: WorkflowDocument): WorkflowGraph {
    return buildGraph(document, this.lookup);
  }

  validate(document: WorkflowDocument): IssueDetail[] {
    return validateWorkflow(document, this.lookup);
  }
}
