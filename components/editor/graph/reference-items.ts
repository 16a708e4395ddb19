import type { WorkflowBlock, WorkflowEdge } from "@/contract";
import { getBlockDefinition } from "@/blocks";
import { enclosingContainers, upstreamBlocks } from "@/executor";
import { blockOutputPaths } from "./block-outputs";
import type { CompletionItem } from "./reference-completion";

/** Every reference a block may use: upstream outputs, workflow variables, container items. */
export function referenceItemsFor(
  blocks: ReadonlyArray<WorkflowBlock>,
  edges: ReadonlyArray<WorkflowEdge>,
  variables: Record<string, unknown>,
  blockId: string,
): CompletionItem[] {
  const items: CompletionItem[] = [];
  // The workflow's variables, then those Set Variables blocks upstream assign (each name once).
  const variableNames = new Set(Object.keys(variables));
  for (const block of upstreamBlocks(blocks, edges, blockId)) {
    for (const output of blockOutputPaths(block))
      items.push({ value: `${block.name}.${output.path}`, detail: output.type });
    for (const name of getBlockDefinition(block.type)?.assignsVariables?.(block) ?? []) variableNames.add(name);
  }
  for (const name of variableNames) items.push({ value: `variable.${name}`, detail: "variable" });
  for (const container of enclosingContainers(blocks, blockId)) {
    const prefix = getBlockDefinition(container.type)?.container ?? "loop";
    items.push(
      { value: `${prefix}.index`, detail: `${container.name} iteration` },
      { value: `${prefix}.item`, detail: `${container.name} item` },
    );
  }
  return items;
}
