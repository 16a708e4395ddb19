import { getBlockDefinition } from "@/blocks";
import type { WorkflowBlock } from "@/contract";

export interface OutputPath {
  path: string;
  type: string;
  description?: string;
}

/**
 * The output paths a block offers to references. A `*` output stands for fields named by the
 * block's own config: the items of its `inputs` field (start) or its `metrics` (evaluator, by
 * lowercased name), read by field kind so no block type is named here.
 */
export function blockOutputPaths(block: WorkflowBlock): OutputPath[] {
  const definition = getBlockDefinition(block.type);
  if (!definition) return [];
  const result: OutputPath[] = [];
  for (const output of definition.outputs) {
    if (output.path !== "*") {
      result.push({ path: output.path.replace(/\[\]/g, "[0]"), type: output.type, description: output.description });
      continue;
    }
    for (const field of definition.fields) {
      if (field.kind !== "inputs" && field.kind !== "metrics") continue;
      const items = block.config[field.key];
      if (!Array.isArray(items)) continue;
      for (const item of items) {
        const name = typeof item === "object" && item !== null ? (item as { name?: unknown }).name : undefined;
        if (typeof name !== "string" || !name.trim()) continue;
        const path = field.kind === "metrics" ? name.trim().toLowerCase() : name.trim();
        const declaredType = (item as { type?: unknown }).type;
        result.push({
          path,
          type: typeof declaredType === "string" ? declaredType : output.type,
          description: output.description,
        });
      }
    }
  }
  return result;
}
