import type { EditorEdge, EditorNode, WorkflowMeta } from "../graph/flow-types";

/**
 * Undo keeps whole snapshots. They are cheap: nodes and edges are immutable arrays whose
 * unchanged members are shared between snapshots, so a snapshot is three references.
 */
export interface GraphSnapshot {
  meta: WorkflowMeta;
  nodes: EditorNode[];
  edges: EditorEdge[];
}

export const HISTORY_LIMIT = 200;
/** Keystrokes in one field within this window undo together. */
export const COALESCE_WINDOW_MS = 1_500;

export interface HistoryState {
  past: GraphSnapshot[];
  future: GraphSnapshot[];
  lastCoalesceKey: string | null;
  lastCommitAt: number;
}

export const EMPTY_HISTORY: HistoryState = { past: [], future: [], lastCoalesceKey: null, lastCommitAt: 0 };

export function pushHistory(
  history: HistoryState,
  before: GraphSnapshot,
  coalesceKey: string | null,
  now: number,
): HistoryState {
  const coalesce =
    coalesceKey !== null && coalesceKey === history.lastCoalesceKey && now - history.lastCommitAt < COALESCE_WINDOW_MS;
  const past = coalesce ? history.past : [...history.past, before].slice(-HISTORY_LIMIT);
  return { past, future: [], lastCoalesceKey: coalesceKey, lastCommitAt: now };
}

/** Whether anything a document holds differs between two snapshots of the graph. */
export function graphMoved(before: EditorNode[], after: EditorNode[]): boolean {
  if (before === after) return false;
  if (before.length !== after.length) return true;
  const previous = new Map(before.map((node) => [node.id, node]));
  return after.some((node) => {
    const old = previous.get(node.id);
    return (
      !old ||
      old.position.x !== node.position.x ||
      old.position.y !== node.position.y ||
      old.parentId !== node.parentId ||
      old.width !== node.width ||
      old.height !== node.height
    );
  });
}

/** Restored snapshots come back unselected, so the inspector does not open a stale block. */
export function withoutSelection(snapshot: GraphSnapshot): GraphSnapshot {
  return {
    meta: snapshot.meta,
    nodes: snapshot.nodes.map((node) => (node.selected ? { ...node, selected: false } : node)),
    edges: snapshot.edges.map((edge) => (edge.selected ? { ...edge, selected: false } : edge)),
  };
}
