import { edgeHandle, type WorkflowDocument, type WorkflowEdge } from "@/contract";
import type { BlockTypeLookup } from "./block-type";
import { connectionKey, duplicateEdgeMessage, judgeEdge } from "./edge-rules";
import { blockLabel } from "./graph";
import { closingCycleMessage, flowPathsInto, flowPredecessors } from "./graph-cycles";
import { analyzeWorkflow, type BlockEntry } from "./workflow-analysis";

/** An edge the user is about to draw. */
export type ConnectionCandidate = Pick<WorkflowEdge, "source" | "target" | "sourceHandle">;

export interface ConnectionChecker {
  /** Why the edge may not be drawn (a sentence for the user), or null when saving would accept it. */
  problem(connection: ConnectionCandidate): string | null;
}

/**
 * Whether new edges may be drawn in one revision of a document, for the canvas
 * (`isValidConnection`, asked on every hover while a connection is dragged). It answers with the
 * save-time rules themselves: the per-edge rules of edge-rules.ts, no second edge for the same
 * connection, and no cycle among the flow edges graph-cycles.ts checks.
 *
 * The document is analysed once, here. Each answer then costs a few map lookups, plus, the first
 * time a block is the source, one walk over the blocks upstream of it (kept for later hovers:
 * while one connection is dragged the source stays the same).
 */
export function createConnectionChecker(document: WorkflowDocument, lookup: BlockTypeLookup): ConnectionChecker {
  const analysis = analyzeWorkflow(document, lookup);
  const connected = new Set(
    [...analysis.edges, ...analysis.dormantEdges].map((edge) =>
      connectionKey(edge.source.block.id, edge.target.block.id, edge.handle),
    ),
  );
  const predecessors = flowPredecessors(analysis);
  const handlesBySource = new Map<BlockEntry, ReadonlyArray<string>>();
  const pathsBySource = new Map<BlockEntry, Map<BlockEntry, BlockEntry>>();

  const handlesOf = (entry: BlockEntry): ReadonlyArray<string> => {
    let handles = handlesBySource.get(entry);
    if (!handles) {
      handles = entry.info?.sourceHandles(entry.block) ?? [];
      handlesBySource.set(entry, handles);
    }
    return handles;
  };
  const pathsInto = (entry: BlockEntry): Map<BlockEntry, BlockEntry> => {
    let paths = pathsBySource.get(entry);
    if (!paths) {
      paths = flowPathsInto(entry, predecessors);
      pathsBySource.set(entry, paths);
    }
    return paths;
  };
  const known = (id: string): BlockEntry | string => {
    const entry = analysis.byId.get(id);
    if (!entry) return `There is no block '${id}'`;
    if (!entry.info) return `Block ${blockLabel(entry.block)} has unknown block type '${entry.block.type}'`;
    return entry;
  };

  return {
    problem(connection) {
      const source = known(connection.source);
      if (typeof source === "string") return source;
      const target = known(connection.target);
      if (typeof target === "string") return target;
      const handle = edgeHandle(connection);
      const verdict = judgeEdge(source, target, handle, handlesOf(source));
      if (verdict.problem) return verdict.problem.message;
      if (connected.has(connectionKey(source.block.id, target.block.id, handle)))
        return duplicateEdgeMessage(source, target, handle);
      if (verdict.kind !== "flow") return null;
      const paths = pathsInto(source);
      if (!paths.has(target)) return null;
      const around = [source, target];
      for (let next = paths.get(target); next; next = paths.get(next)) around.push(next);
      return closingCycleMessage(around);
    },
  };
}

/** One question without keeping the checker: analyses the whole document, so not for every hover. */
export function connectionProblem(
  document: WorkflowDocument,
  lookup: BlockTypeLookup,
  connection: ConnectionCandidate,
): string | null {
  return createConnectionChecker(document, lookup).problem(connection);
}
