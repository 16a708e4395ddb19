import "server-only";
import { isErrorCode } from "@/contract";
import { BlockExecutionError, isTrellisError, type BlockHandler } from "@/executor";
import { usageOutputFields } from "@/providers";
import { checkWorkflowCall, DEFAULT_MAX_WORKFLOW_DEPTH, type WorkflowCalls, type WorkflowToolTarget } from "@/tools/workflow";
import type { WorkflowBlockConfig } from "./definition";

export interface WorkflowBlockDependencies {
  /** The same calls the workflow tool makes (lib/runtime/workflow-call-runtime.ts). */
  workflows: WorkflowCalls;
}

async function describeTarget(workflows: WorkflowCalls, workflowId: string, blockName: string): Promise<WorkflowToolTarget> {
  try {
    return await workflows.describeWorkflow(workflowId);
  } catch (error) {
    if (isTrellisError(error) && error.code !== "not_found") throw error;
    throw new BlockExecutionError(
      `Workflow block "${blockName}" calls workflow "${workflowId}", which is not in this workspace (deleted?); choose another workflow`,
      { code: "invalid_config" },
    );
  }
}

/**
 * The Workflow block (Sim's workflow block): another workflow of the workspace runs as a child
 * run, stored and inspectable like any other, its start inputs from the config and its output
 * the block's `output`. The child's tokens and cost are the block's usage, so the calling run's
 * totals include them once. Depth and cycles are limited as for workflow tools.
 */
export function createWorkflowBlockHandler({ workflows }: WorkflowBlockDependencies): BlockHandler<WorkflowBlockConfig> {
  const maxDepth = workflows.maxDepth ?? DEFAULT_MAX_WORKFLOW_DEPTH;
  return async ({ config, context }) => {
    const target = await describeTarget(workflows, config.workflowId, context.block.name);
    // Checked before the child starts, so a cycle names the whole chain rather than failing one level down.
    const chain = await workflows.callChain(context.runId, context.workflowId);
    checkWorkflowCall(chain, { workflowId: target.id, workflowName: target.name }, context.depth, maxDepth);
    // A reference to nothing leaves the input out, so the child's default applies.
    const input = Object.fromEntries(Object.entries(config.inputs).filter(([, value]) => value !== undefined));
    const result = await workflows.runWorkflow({
      workflowId: target.id,
      target: config.target,
      input,
      depth: context.depth + 1,
      signal: context.signal,
      parentRunId: context.runId,
    });
    const link = { runId: result.runId, workflowId: target.id };
    if (result.status !== "succeeded") {
      const reason = result.error ? `: ${result.error.message}` : "";
      throw new BlockExecutionError(`Workflow "${target.name}" ${result.status === "cancelled" ? "was cancelled" : "failed"}${reason} (run ${result.runId})`, {
        code: result.error && isErrorCode(result.error.code) ? result.error.code : "workflow_failed",
        spent: result.usage,
        partialOutput: link,
      });
    }
    return { output: { output: result.output, ...link, ...usageOutputFields(result.usage) }, usage: result.usage };
  };
}
