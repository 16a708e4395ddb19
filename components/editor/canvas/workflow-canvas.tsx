"use client";

import { useCallback, useMemo, useState, type DragEvent } from "react";
import { Map as MapIcon } from "lucide-react";
import {
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  applyNodeChanges,
  useReactFlow,
  type NodeChange,
  type Connection,
  type Edge,
  type EdgeTypes,
  type NodeTypes,
} from "@xyflow/react";
import { isValidCanvasConnection } from "../graph/canvas-connection-problem";
import { containerAt } from "../graph/container-hit";
import type { EditorEdge, EditorNode } from "../graph/flow-types";
import { absolutePosition } from "../graph/graph-operations";
import { useEditorStore, useEditorStoreApi } from "../store";
import { BlockNode } from "./block-node";
import { ContainerNode } from "./container-node";
import { FlowEdge } from "./flow-edge";
import { DotGrid } from "./dot-grid";
import { withEstimatedBounds } from "./estimated-node";
import { PALETTE_DRAG_TYPE, useAddBlock } from "./use-add-block";
import { MINIMAP_AUTO_LIMIT, MINIMAP_SIZE, useMinimap } from "./use-minimap";
import { useNodesChange } from "./use-nodes-change";
import { zoomLayerHint } from "./zoom-layer-hint";
import { EmptyCanvasTemplates } from "./empty-canvas-templates";
import { useColorScheme } from "@/components/theme/use-color-scheme";

const nodeTypes: NodeTypes = { block: BlockNode, container: ContainerNode };
const edgeTypes: EdgeTypes = { workflow: FlowEdge };
/**
 * The first view fits the workflow but never below half size: a large graph opens readable around
 * its centre, and only the blocks in view are rendered after their first measurement.
 */
const INITIAL_FIT = { maxZoom: 1, minZoom: 0.5, padding: 0.2, includeHiddenNodes: true };
/**
 * Fitting counts blocks never drawn yet by their estimated size (estimated-node.ts): React Flow
 * otherwise fits only measured nodes, and off-screen blocks are not measured. The editor hides
 * no nodes, so this option only adds those.
 */
export const FIT_ALL = { maxZoom: 1, padding: 0.2, includeHiddenNodes: true } as const;
const minimapColour = (node: EditorNode) =>
  node.type === "container" ? "var(--color-violet-200)" : "var(--color-slate-300)";

export function WorkflowCanvas() {
  const store = useEditorStoreApi();
  const storeNodes = useEditorStore((state) => state.nodes);
  const [measuredIds] = useState(() => new Set<string>());
  const draftNodes = useMemo(
    () => storeNodes.map((node) => withEstimatedBounds(node, measuredIds)),
    [storeNodes, measuredIds],
  );
  const minimap = useMinimap(store.getState().nodes.length);
  const storeEdges = useEditorStore((state) => state.edges);
  const editNodes = useNodesChange();
  const proposal = useEditorStore((state) => state.copilotProposal);
  // A copilot proposal is shown instead of the draft (copilot-slice.ts), read-only, measured locally.
  const [preview, setPreview] = useState({ of: proposal, nodes: proposal?.preview.nodes ?? null });
  if (preview.of !== proposal) setPreview({ of: proposal, nodes: proposal?.preview.nodes ?? null });
  const previewNodes = preview.of === proposal ? preview.nodes : (proposal?.preview.nodes ?? null);
  const setPreviewNodes = useCallback(
    (update: (current: EditorNode[] | null) => EditorNode[] | null) =>
      setPreview((current) => ({ ...current, nodes: update(current.nodes) })),
    [],
  );
  const previewing = proposal !== null && previewNodes !== null;
  const nodes = previewing ? previewNodes : draftNodes;
  const edges = previewing ? proposal.preview.edges : storeEdges;
  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      if (store.getState().copilotProposal) setPreviewNodes((current) => current && applyNodeChanges(changes, current));
      else editNodes(changes);
    },
    [store, editNodes, setPreviewNodes],
  );
  const readOnly = useEditorStore((state) => state.readOnly || state.copilotProposal !== null);
  const onEdgesChange = useEditorStore((state) => state.onEdgesChange);
  const flow = useReactFlow<EditorNode, EditorEdge>();
  const addBlock = useAddBlock();
  const [{ attach: attachZoomHint, onMoveStart, onMove, onMoveEnd }] = useState(zoomLayerHint);
  const observeMinimapRoom = minimap.observe;
  const attachCanvas = useCallback(
    (element: HTMLDivElement | null) => {
      attachZoomHint(element);
      return observeMinimapRoom(element);
    },
    [attachZoomHint, observeMinimapRoom],
  );

  const isValidConnection = useCallback(
    (connection: Connection | Edge) => {
      const { nodes, edges } = store.getState();
      return isValidCanvasConnection(nodes, edges, connection);
    },
    [store],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const type = event.dataTransfer.getData(PALETTE_DRAG_TYPE);
      if (!type || store.getState().readOnly) return;
      event.preventDefault();
      addBlock(type, flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }));
    },
    [addBlock, flow, store],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);

  /** After a drag, blocks and containers dropped over a container move into it; those dragged out leave it. */
  const onDragStop = useCallback(
    (_event: unknown, _node: EditorNode, dragged: EditorNode[]) => {
      const state = store.getState();
      const byId = new Map(state.nodes.map((node) => [node.id, node]));
      for (const moved of dragged) {
        const current = byId.get(moved.id);
        // Children dragged with their container stay inside it; containers nest like blocks.
        if (!current || (current.parentId && dragged.some((other) => other.id === current.parentId))) continue;
        const origin = absolutePosition(current, byId);
        const centre = {
          x: origin.x + (current.measured?.width ?? 240) / 2,
          y: origin.y + (current.measured?.height ?? 60) / 2,
        };
        const target = containerAt(state.nodes, centre, current.id);
        store.getState().reparent(current.id, target?.id ?? null);
      }
      store.getState().endGesture();
    },
    [store],
  );
  const beginGesture = useCallback(() => store.getState().beginGesture(), [store]);
  const onSelectionDragStop = useCallback(
    (event: unknown, dragged: EditorNode[]) => onDragStop(event, dragged[0]!, dragged),
    [onDragStop],
  );
  const onConnect = useCallback((connection: Connection) => void store.getState().connect(connection), [store]);
  const defaultEdgeOptions = useMemo(() => ({ type: "workflow" }), []);

  return (
    <div
      ref={attachCanvas}
      className="relative h-full w-full"
      onDrop={onDrop}
      onDragOver={onDragOver}
      data-testid="canvas"
      data-copilot-preview={previewing ? "" : undefined}
    >
      <ReactFlow<EditorNode, EditorEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        defaultEdgeOptions={defaultEdgeOptions}
        onNodesChange={onNodesChange}
        onEdgesChange={previewing ? undefined : onEdgesChange}
        elementsSelectable={!previewing}
        onConnect={onConnect}
        isValidConnection={isValidConnection}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        onNodeDragStart={beginGesture}
        onNodeDragStop={onDragStop}
        onSelectionDragStart={beginGesture}
        onSelectionDragStop={onSelectionDragStop}
        onMoveStart={onMoveStart}
        onMove={onMove}
        onMoveEnd={onMoveEnd}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={["Shift", "Meta", "Control"]}
        onlyRenderVisibleElements
        minZoom={0.1}
        maxZoom={2}
        fitView
        fitViewOptions={INITIAL_FIT}
        // React Flow's MIT licence is kept, and its authors ask that the attribution stay unless one
        // subscribes to React Flow Pro: it is shown, small, in the corner.
        colorMode={useColorScheme()}
      >
        <DotGrid />
        <Controls showInteractive={false} fitViewOptions={FIT_ALL}>
          <ControlButton
            onClick={minimap.toggle}
            aria-pressed={minimap.shown}
            title={`${minimap.shown ? "Hide" : "Show"} the minimap (hidden unasked on a small canvas or while a block is in its corner, and above ${MINIMAP_AUTO_LIMIT} blocks, where it slows panning)`}
            aria-label={minimap.shown ? "Hide minimap" : "Show minimap"}
            data-testid="minimap-toggle"
          >
            <MapIcon />
          </ControlButton>
        </Controls>
        {minimap.shown && (
          <MiniMap pannable zoomable nodeColor={minimapColour} ariaLabel="Minimap" style={MINIMAP_SIZE} />
        )}
      </ReactFlow>
      <EmptyCanvasTemplates />
    </div>
  );
}
