import type { WorkflowBlock, WorkflowDocument, WorkflowEdge } from "@/contract";
import { getBlockDefinition } from "@/blocks";
import {
  DEFAULT_CONTAINER_SIZE,
  type EdgeVariant,
  type EditorEdge,
  type EditorNode,
  type WorkflowMeta,
} from "./flow-types";

export function isContainerType(type: string): boolean {
  return getBlockDefinition(type)?.container !== undefined;
}

/** React Flow wants parents before their children in the node array. */
export function sortParentsFirst<T extends { id: string; parentId?: string | null }>(items: T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const depth = (item: T, seen = new Set<string>()): number => {
    if (!item.parentId || seen.has(item.id)) return 0;
    const parent = byId.get(item.parentId);
    if (!parent) return 0;
    seen.add(item.id);
    return 1 + depth(parent, seen);
  };
  const depths = new Map(items.map((item) => [item.id, depth(item)]));
  return [...items].sort((a, b) => (depths.get(a.id) ?? 0) - (depths.get(b.id) ?? 0));
}

export function blockToNode(block: WorkflowBlock): EditorNode {
  const container = isContainerType(block.type);
  const node: EditorNode = {
    id: block.id,
    type: container ? "container" : "block",
    position: { ...block.position },
    data: {
      type: block.type,
      name: block.name,
      enabled: block.enabled,
      config: block.config,
      ...(block.testing ? { testing: block.testing } : {}),
      ...(block.retry ? { retry: block.retry } : {}),
      ...(block.timeoutMs !== undefined ? { timeoutMs: block.timeoutMs } : {}),
    },
  };
  if (block.parentId) node.parentId = block.parentId;
  if (container) {
    const size = block.size ?? DEFAULT_CONTAINER_SIZE;
    node.width = size.width;
    node.height = size.height;
  }
  return node;
}

export function nodeToBlock(node: EditorNode): WorkflowBlock {
  const block: WorkflowBlock = {
    id: node.id,
    type: node.data.type,
    name: node.data.name,
    position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
    parentId: node.parentId ?? null,
    enabled: node.data.enabled,
    config: node.data.config,
  };
  if (node.data.testing) block.testing = node.data.testing;
  if (node.data.retry) block.retry = node.data.retry;
  if (node.data.timeoutMs !== undefined) block.timeoutMs = node.data.timeoutMs;
  if (node.type === "container") {
    const width = node.width ?? node.measured?.width ?? DEFAULT_CONTAINER_SIZE.width;
    const height = node.height ?? node.measured?.height ?? DEFAULT_CONTAINER_SIZE.height;
    block.size = { width: Math.round(width), height: Math.round(height) };
  }
  return block;
}

/** How an edge is drawn follows the handle it leaves from (an agent's tool outcomes: success like a branch, error like an error). */
export function edgeVariantForHandle(handle: string | null | undefined): EdgeVariant {
  if (handle === "error") return "error";
  if (handle === "body") return "body";
  if (handle?.startsWith("branch:")) return "branch";
  if (handle?.startsWith("tool:")) return handle.endsWith(":error") ? "error" : "branch";
  return "default";
}

export function workflowEdgeToFlow(edge: WorkflowEdge): EditorEdge {
  const sourceHandle = edge.sourceHandle ?? "out";
  const variant = edgeVariantForHandle(sourceHandle);
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle,
    type: "workflow",
    data: {
      variant,
      ...(edge.condition?.trim() ? { condition: edge.condition } : {}),
      ...(edge.maxRetries !== undefined ? { maxRetries: edge.maxRetries } : {}),
    },
  };
}

export function flowEdgeToWorkflow(edge: EditorEdge): WorkflowEdge {
  const workflowEdge: WorkflowEdge = {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    sourceHandle: edge.sourceHandle ?? "out",
  };
  // A blank condition is none: the document does not keep it.
  const condition = edge.data?.condition;
  if (condition?.trim()) workflowEdge.condition = condition;
  if (edge.data?.maxRetries !== undefined) workflowEdge.maxRetries = edge.data.maxRetries;
  return workflowEdge;
}

export function documentToFlow(document: Pick<WorkflowDocument, "blocks" | "edges">): {
  nodes: EditorNode[];
  edges: EditorEdge[];
} {
  return {
    nodes: sortParentsFirst(document.blocks).map(blockToNode),
    edges: document.edges.map(workflowEdgeToFlow),
  };
}

export function flowToDocument(meta: WorkflowMeta, nodes: EditorNode[], edges: EditorEdge[]): WorkflowDocument {
  return {
    name: meta.name,
    description: meta.description,
    variables: meta.variables,
    blocks: nodes.map(nodeToBlock),
    edges: edges.map(flowEdgeToWorkflow),
    ...(meta.settings ? { settings: meta.settings } : {}),
  };
}
