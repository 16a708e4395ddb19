import type { BlockTesting, WorkflowBlock, WorkflowDocument } from "@/contract";
import type { Edge, Node } from "@xyflow/react";

/**
 * The canvas keeps React Flow nodes and edges as its working copy of the document: a block's
 * id, position and parent live on the node, everything else in `data`. Converting to and from
 * the workflow document happens in document-flow.ts only.
 */
export type BlockNodeData = {
  type: string;
  name: string;
  enabled: boolean;
  config: Record<string, unknown>;
  /** What a test run answers instead of the block's side effects (block.testing). */
  testing?: BlockTesting;
  /** Block settings the canvas has no editor for yet, kept so a save does not drop them. */
  retry?: WorkflowBlock["retry"];
  timeoutMs?: WorkflowBlock["timeoutMs"];
};

export type BlockNodeType = "block" | "container";

export type EditorNode = Node<BlockNodeData, BlockNodeType>;

export type EdgeVariant = "default" | "error" | "branch" | "body";

/**
 * `condition`: the edge's condition over its source's output, as typed (absent when it has none).
 * `maxRetries`: a retry edge's cap (it goes back to an earlier block); absent on other edges.
 */
export type EditorEdge = Edge<{ variant: EdgeVariant; condition?: string; maxRetries?: number }>;

/** Name, description and variables: the document minus its graph. */
export interface WorkflowMeta {
  name: string;
  description: string;
  variables: Record<string, unknown>;
  /** Kept as loaded, so saving from the editor never drops what the API set (a run time limit). */
  settings?: WorkflowDocument["settings"];
}

export const DEFAULT_CONTAINER_SIZE = { width: 420, height: 240 } as const;
