import "server-only";
import { calledWorkflowId, type BlockType } from "@/blocks";
import type { WorkflowDocument } from "@/contract";
import { GraphValidationError } from "@/executor";

const WORKFLOW_BLOCK: BlockType = "workflow";

/**
 * Refuses a document in which a Workflow block runs the workflow being saved: a cycle no run
 * could finish (a longer cycle, through other workflows, is stopped when it runs, naming the chain).
 */
export function refuseSelfCall(workflowId: string, document: WorkflowDocument): void {
  const issues = document.blocks.flatMap((block, index) =>
    block.type === WORKFLOW_BLOCK && calledWorkflowId(block) === workflowId
      ? [{ path: `blocks[${index}].config.workflowId`, message: `Workflow block "${block.name}" runs this workflow itself, a cycle: choose another workflow` }]
      : [],
  );
  if (issues.length > 0) throw new GraphValidationError(issues.map((issue) => issue.message).join("; "), issues);
}
