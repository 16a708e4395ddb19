import { getBlockDefinition } from "@/blocks";
import type { WorkflowBlock } from "@/contract";
import { defaultConfig } from "./default-config";
import { uniqueBlockId, uniqueBlockName } from "./block-naming";
import { DEFAULT_CONTAINER_SIZE } from "./flow-types";

export interface ExistingNames {
  ids: ReadonlySet<string>;
  names: Iterable<string>;
}

/** A fresh block of a registered type, named and identified so it collides with nothing. */
export function createBlock(
  type: string,
  position: { x: number; y: number },
  existing: ExistingNames,
  parentId: string | null = null,
): WorkflowBlock {
  const definition = getBlockDefinition(type);
  if (!definition) throw new Error(`Unknown block type "${type}"`);
  const block: WorkflowBlock = {
    id: uniqueBlockId(type, existing.ids),
    type,
    name: uniqueBlockName(definition.label, existing.names),
    position,
    parentId,
    enabled: true,
    config: defaultConfig(definition),
  };
  if (definition.container) block.size = { ...DEFAULT_CONTAINER_SIZE };
  return block;
}
