import type { WorkflowBlock } from "@/contract";
import type { BlockNodeData } from "../graph/flow-types";

/** Enough of a block for `definition.sourceHandles(block)`, built from a node's props. */
export function nodeAsBlock(id: string, data: BlockNodeData, parentId: string | undefined): WorkflowBlock {
  return {
    id,
    type: data.type,
    name: data.name,
    enabled: data.enabled,
    config: data.config,
    parentId: parentId ?? null,
    position: { x: 0, y: 0 },
  };
}
