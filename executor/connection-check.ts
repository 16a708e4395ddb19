import type { BlockTypeLookup } from "./block-type";
import type { WorkflowDocument, WorkflowEdge } from "./document";
import { analyzeWorkflow } from "./workflow-analysis";

/**
 * Whether a new edge may be drawn, for the canvas (`isValidConnection`): the same rules as save
 * time (handles, the start block, container boundaries) plus "would this close a cycle". Returns
 * the reason it may not, or null.
 */
export function connectionProblem(document: WorkflowDocument, lookup: BlockTypeLookup, connection: Pick<WorkflowEdge, "source" | "target" | "sourceHandle">): string | null {
  const index = document.edges.length;
  const candidate: WorkflowDocument = { ...document, edges: [...document.edges, { id: "new-edge", ...connection }] };
  const analysis = analyzeWorkflow(candidate, lookup);
  const own = analysis.issues.find((issue) => issue.path === `edges[${index}]` || issue.path.startsWith(`edges[${index}].`));
  if (own) return own.message;
  const added = analysis.edges.find((edge) => edge.index === index);
  if (!added || added.kind !== "flow") return null;
  // A cycle closes when the source can already be reached from the target.
  const next = new Map<string, string[]>();
  for (const edge of analysis.edges) {
    if (edge.kind !== "flow" || edge.index === index) continue;
    const list = next.get(edge.source.block.id);
    if (list) list.push(edge.target.block.id);
    else next.set(edge.source.block.id, [edge.target.block.id]);
  }
  const seen = new Set([added.target.block.id]);
  const queue = [added.target.block.id];
  for (let position = 0; position < queue.length; position += 1) {
    for (const id of next.get(queue[position]!) ?? []) {
      if (id === added.source.block.id) return `Connecting '${added.source.block.name}' to '${added.target.block.name}' would close a cycle; repeat work with a loop container instead`;
      if (!seen.has(id)) {
        seen.add(id);
        queue.push(id);
      }
    }
  }
  return null;
}
