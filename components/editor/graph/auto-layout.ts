import type { ElkNode, ElkPort } from "elkjs/lib/elk-api";
import { getBlockDefinition } from "@/blocks";
import type { EditorEdge, EditorNode } from "./flow-types";

export type LayoutResult = Map<string, { x: number; y: number; width?: number; height?: number }>;

const DEFAULT_SIZE = { width: 240, height: 80 };
const LAYOUT_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  // Room below each block for what a run adds to it (status and figures, a line of output) and
  // for a loop growing around its children's: blocks laid out closer overlapped after a run.
  "elk.spacing.nodeNode": "80",
  "elk.layered.spacing.nodeNodeBetweenLayers": "80",
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.padding": "[top=80,left=50,bottom=50,right=30]",
};

/** An ELK port id for one handle of one node. */
const portId = (nodeId: string, handleId: string) => `${nodeId}\u0000${handleId}`;

/**
 * A node's source handles as ELK ports on its right side, in the order the node draws them (ELK
 * numbers a side's ports clockwise, so on the east side from the top): the layered algorithm then
 * places a condition's or router's targets in its branches' order, and their edges do not cross.
 */
function sourcePorts(node: EditorNode): ElkPort[] {
  const definition = getBlockDefinition(node.data.type);
  if (!definition) return [];
  const block = {
    id: node.id,
    type: node.data.type,
    name: node.data.name,
    enabled: node.data.enabled,
    config: node.data.config,
    parentId: node.parentId ?? null,
    position: node.position,
  };
  return definition
    .sourceHandles(block)
    .filter((handle) => handle.variant !== "body")
    .map((handle, index) => ({
      id: portId(node.id, handle.id),
      width: 8,
      height: 8,
      layoutOptions: { "elk.port.side": "EAST", "elk.port.index": String(index) },
    }));
}

/**
 * Lays the whole graph out left to right with ELK's layered algorithm; containers are laid out
 * with their children inside them and grow to fit. ELK is loaded on first use only.
 */
export async function layoutGraph(
  nodes: ReadonlyArray<EditorNode>,
  edges: ReadonlyArray<EditorEdge>,
): Promise<LayoutResult> {
  const { default: ELK } = await import("elkjs/lib/elk.bundled.js");
  const elk = new ELK();
  const elkNodes = new Map<string, ElkNode>();
  const ports = new Set<string>();
  for (const node of nodes) {
    // ELK's importer trips over keys that are present but undefined, so containers and blocks
    // get only the keys they use.
    const nodePorts = sourcePorts(node);
    for (const port of nodePorts) ports.add(port.id);
    const portOptions: Record<string, string> = nodePorts.length > 0 ? { "elk.portConstraints": "FIXED_ORDER" } : {};
    const elkNode: ElkNode =
      node.type === "container"
        ? {
            id: node.id,
            children: [],
            ports: nodePorts,
            layoutOptions: { "elk.padding": "[top=90,left=60,bottom=60,right=40]", ...portOptions },
          }
        : {
            id: node.id,
            width: node.measured?.width ?? DEFAULT_SIZE.width,
            height: node.measured?.height ?? DEFAULT_SIZE.height,
            ports: nodePorts,
            layoutOptions: portOptions,
          };
    elkNodes.set(node.id, elkNode);
  }
  const roots: ElkNode[] = [];
  for (const node of nodes) {
    const elkNode = elkNodes.get(node.id)!;
    const parent = node.parentId ? elkNodes.get(node.parentId) : undefined;
    if (parent?.children) parent.children.push(elkNode);
    else roots.push(elkNode);
  }
  for (const elkNode of elkNodes.values()) {
    if (elkNode.children && elkNode.children.length === 0) {
      elkNode.width = 420;
      elkNode.height = 240;
      delete elkNode.children;
    }
  }
  // Body edges run from a container into itself; ELK places children inside anyway.
  const layoutEdges = edges
    .filter((edge) => edge.sourceHandle !== "body" && elkNodes.has(edge.source) && elkNodes.has(edge.target))
    .map((edge) => {
      const port = portId(edge.source, edge.sourceHandle ?? "out");
      return { id: edge.id, sources: [ports.has(port) ? port : edge.source], targets: [edge.target] };
    });
  const laidOut = await elk.layout({ id: "root", layoutOptions: LAYOUT_OPTIONS, children: roots, edges: layoutEdges });
  const result: LayoutResult = new Map();
  const containerIds = new Set(nodes.filter((node) => node.type === "container").map((node) => node.id));
  const visit = (elkNode: ElkNode) => {
    if (elkNode.id !== "root") {
      const isContainer = containerIds.has(elkNode.id);
      result.set(elkNode.id, {
        x: Math.round(elkNode.x ?? 0),
        y: Math.round(elkNode.y ?? 0),
        ...(isContainer ? { width: Math.round(elkNode.width ?? 420), height: Math.round(elkNode.height ?? 240) } : {}),
      });
    }
    elkNode.children?.forEach(visit);
  };
  visit(laidOut);
  return result;
}
