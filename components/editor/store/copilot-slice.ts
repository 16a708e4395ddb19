import type { CopilotAnswer, WorkflowDocument } from "@/contract";
import { documentToFlow } from "../graph/document-flow";
import type { EditorEdge, EditorNode } from "../graph/flow-types";

/**
 * A copilot proposal waiting for Accept or Reject. While it waits, the canvas shows the proposed
 * graph (added blocks and edges highlighted, removed ones ghosted, changed ones marked) instead of
 * the draft; the draft itself is not touched until Accept, which replaces it in one undoable step.
 */
export interface CopilotProposalState {
  answer: CopilotAnswer;
  /** The editor's revision when the copilot was asked: an edit since then makes the proposal stale. */
  askedAtRevision: number;
  preview: { nodes: EditorNode[]; edges: EditorEdge[] };
}

export const COPILOT_ADDED_CLASS = "copilot-added";
export const COPILOT_REMOVED_CLASS = "copilot-removed";
export const COPILOT_CHANGED_CLASS = "copilot-changed";

const edgeKey = (edge: Pick<EditorEdge, "source" | "target" | "sourceHandle">) =>
  `${edge.source}|${edge.sourceHandle ?? "out"}|${edge.target}`;

/** The proposed graph over the draft's: every proposed block and edge, and the draft's removed ones as ghosts. */
export function copilotPreview(
  draft: { nodes: EditorNode[]; edges: EditorEdge[] },
  proposed: WorkflowDocument,
  changedIds: ReadonlySet<string>,
): CopilotProposalState["preview"] {
  const flow = documentToFlow(proposed);
  const draftIds = new Set(draft.nodes.map((node) => node.id));
  const proposedIds = new Set(flow.nodes.map((node) => node.id));
  const draftEdges = new Set(draft.edges.map(edgeKey));
  const proposedEdges = new Set(flow.edges.map(edgeKey));
  const mark = (node: EditorNode): EditorNode => {
    const className = !draftIds.has(node.id)
      ? COPILOT_ADDED_CLASS
      : changedIds.has(node.id)
        ? COPILOT_CHANGED_CLASS
        : undefined;
    return { ...node, selectable: false, draggable: false, ...(className ? { className } : {}) };
  };
  const ghosts = draft.nodes
    .filter((node) => !proposedIds.has(node.id))
    .map((node) => ({
      ...node,
      className: COPILOT_REMOVED_CLASS,
      selectable: false,
      draggable: false,
      selected: false,
    }));
  const ghostEdges = draft.edges
    .filter((edge) => !proposedEdges.has(edgeKey(edge)))
    .map((edge) => ({ ...edge, id: `removed:${edge.id}`, className: COPILOT_REMOVED_CLASS, selectable: false }));
  return {
    nodes: [...flow.nodes.map(mark), ...ghosts],
    edges: [
      ...flow.edges.map((edge) =>
        draftEdges.has(edgeKey(edge)) ? edge : { ...edge, className: COPILOT_ADDED_CLASS, animated: true },
      ),
      ...ghostEdges,
    ],
  };
}

/** Why a proposal can no longer be applied, or null when it can. */
export function staleProposalReason(
  proposal: CopilotProposalState,
  save: { version: number; revision: number },
): string | null {
  if (save.version !== proposal.answer.baseVersion || save.revision !== proposal.askedAtRevision)
    return "The draft changed since the copilot read it: the proposal was not applied. Ask again to base it on the draft as it is now.";
  return null;
}
