import "server-only";
import { getBlockDefinition } from "@/blocks";
import type { WorkflowDocument } from "@/contract";
import { GraphValidationError } from "@/executor";

/**
 * Refuses a document in which a block runs the workflow being saved (a Workflow block: its
 * definition's stored reference with `runs`): a cycle no run could finish (a longer cycle, through
 * other workflows, is stopped when it runs, naming the chain).
 */
export function refuseSelfCall(workflowId: string, document: WorkflowDocument): void {
  const issues = document.blocks.flatMap((block, index) =>
    (getBlockDefinition(block.type)?.storedReferences?.((block.config ?? {}) as Record<string, unknown>) ?? [])
      .filter((reference) => reference.runs && reference.kind === "workflow" && reference.value === workflowId)
      .map((reference) => ({
        path: `blocks[${index}].config.${reference.path}`,
        message: `${getBlockDefinition(block.type)?.label ?? block.type} block "${block.name}" runs this workflow itself, a cycle: choose another workflow`,
      })),
  );
  if (issues.length > 0) throw new GraphValidationError(issues.map((issue) => issue.message).join("; "), issues);
}
