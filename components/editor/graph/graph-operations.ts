import { normalizeBlockName, type WorkflowBlock, type WorkflowEdge } from "@/contract";
import { blockToNode, edgeVariantForHandle, sortParentsFirst, workflowEdgeToFlow } from "./document-flow";
import type { EditorEdge, EditorNode } from "./flow-types";
import { growContainersToFit } from "./grow-containers";
import { renameReferenceRoots } from "./rename-references";

/** Pure edits of the canvas graph; the store wraps each one in an undoable commit. */

/** Removes the given blocks, the blocks inside removed containers, and every edge touching them. */
export function removeBlocks(
  nodes: EditorNode[],
  edges: EditorEdge[],
  ids: ReadonlySet<string>,
  edgeIds: ReadonlySet<string> = new Set(),
) {
  const removed = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const node of nodes) {
      if (node.parentId && removed.has(node.parentId) && !removed.has(node.id)) {
        removed.add(node.id);
        grew = true;
      }
    }
  }
  return {
    nodes: nodes.filter((node) => !removed.has(node.id)),
    edges: edges.filter((edge) => !removed.has(edge.source) && !removed.has(edge.target) && !edgeIds.has(edge.id)),
  };
}

/** Adds blocks and edges, selecting only the added blocks. */
export function addBlocks(nodes: EditorNode[], edges: EditorEdge[], blocks: WorkflowBlock[], newEdges: WorkflowEdge[]) {
  const added = sortParentsFirst(blocks).map((block) => ({ ...blockToNode(block), selected: true }));
  const deselected = nodes.map((node) => (node.selected ? { ...node, selected: false } : node));
  let nextNodes = sortParentsFirst([...deselected, ...added]);
  for (const node of added) if (node.parentId) nextNodes = growContainersToFit(nextNodes, node.id);
  return {
    nodes: nextNodes,
    edges: [
      ...edges.map((edge) => (edge.selected ? { ...edge, selected: false } : edge)),
      ...newEdges.map(workflowEdgeToFlow),
    ],
  };
}

export function connectEdge(
  edges: EditorEdge[],
  id: string,
  source: string,
  target: string,
  sourceHandle: string,
): EditorEdge[] {
  return [
    ...edges,
    { id, source, target, sourceHandle, type: "workflow", data: { variant: edgeVariantForHandle(sourceHandle) } },
  ];
}

/** Sets or clears (blank) one edge's condition; other edges keep their identity. */
export function setEdgeCondition(edges: EditorEdge[], id: string, condition: string): EditorEdge[] {
  return edges.map((edge) => {
    if (edge.id !== id) return edge;
    const { condition: _previous, ...rest } = edge.data ?? { variant: edgeVariantForHandle(edge.sourceHandle) };
    return { ...edge, data: condition ? { ...rest, condition } : rest };
  });
}

/** Sets a retry edge's cap (`maxRetries`), or makes it an ordinary edge again (null). */
export function setEdgeMaxRetries(edges: EditorEdge[], id: string, maxRetries: number | null): EditorEdge[] {
  return edges.map((edge) => {
    if (edge.id !== id) return edge;
    const { maxRetries: _previous, ...rest } = edge.data ?? { variant: edgeVariantForHandle(edge.sourceHandle) };
    return { ...edge, data: maxRetries === null ? rest : { ...rest, maxRetries } };
  });
}

/** Absolute canvas position of a node (children store positions relative to their parent). */
export function absolutePosition(node: EditorNode, byId: ReadonlyMap<string, EditorNode>): { x: number; y: number } {
  let x = node.position.x;
  let y = node.position.y;
  let parent = node.parentId ? byId.get(node.parentId) : undefined;
  while (parent) {
    x += parent.position.x;
    y += parent.position.y;
    parent = parent.parentId ? byId.get(parent.parentId) : undefined;
  }
  return { x, y };
}

/**
 * Moves a block into a container, out of one, or between them, keeping it where it is on screen.
 * Edges that would now cross a container boundary are dropped, since they could not run.
 */
export function reparentBlock(nodes: EditorNode[], edges: EditorEdge[], nodeId: string, parentId: string | null) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const node = byId.get(nodeId);
  if (!node || (node.parentId ?? null) === parentId) return { nodes, edges };
  const absolute = absolutePosition(node, byId);
  const parent = parentId ? byId.get(parentId) : undefined;
  const origin = parent ? absolutePosition(parent, byId) : { x: 0, y: 0 };
  const moved: EditorNode = { ...node, position: { x: absolute.x - origin.x, y: absolute.y - origin.y } };
  if (parentId) moved.parentId = parentId;
  else delete moved.parentId;
  const nextNodes = growContainersToFit(
    sortParentsFirst(nodes.map((candidate) => (candidate.id === nodeId ? moved : candidate))),
    nodeId,
  );
  const nextById = new Map(nextNodes.map((candidate) => [candidate.id, candidate]));
  const nextEdges = edges.filter((edge) => {
    if (edge.source !== nodeId && edge.target !== nodeId) return true;
    const source = nextById.get(edge.source);
    const target = nextById.get(edge.target);
    if (!source || !target) return false;
    if (edge.sourceHandle === "body") return target.parentId === source.id;
    return (source.parentId ?? null) === (target.parentId ?? null);
  });
  return { nodes: nextNodes, edges: nextEdges };
}

export function updateNodeData(nodes: EditorNode[], id: string, patch: Partial<EditorNode["data"]>): EditorNode[] {
  return nodes.map((node) => (node.id === id ? { ...node, data: { ...node.data, ...patch } } : node));
}

/**
 * After block `id` was renamed from `previousName`, every config that refers to the old name gets
 * the reference pointed at the current one. The same array comes back when nothing changes: the
 * name is the same to the engine (case and spaces ignored), the new name clashes with another
 * block's (references would become ambiguous), or nothing refers to the old name.
 */
export function renameReferencesIn(nodes: EditorNode[], id: string, previousName: string): EditorNode[] {
  const name = nodes.find((node) => node.id === id)?.data.name;
  if (!name || normalizeBlockName(name) === normalizeBlockName(previousName)) return nodes;
  if (nodes.some((node) => node.id !== id && normalizeBlockName(node.data.name) === normalizeBlockName(name)))
    return nodes;
  const roots = new Map([[normalizeBlockName(previousName), name]]);
  let changed = false;
  const next = nodes.map((node) => {
    const config = renameReferenceRoots(node.data.config, roots);
    if (config === node.data.config) return node;
    changed = true;
    return { ...node, data: { ...node.data, config } };
  });
  return changed ? next : nodes;
}
