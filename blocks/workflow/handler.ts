import "server-only";
import { BlockExecutionError, replayedUsage, TrellisError, type BlockHandler, type BlockMemo } from "@/executor";
import { usageOutputFields } from "@/providers";
import {
  checkWorkflowCall,
  childRunFailure,
  DEFAULT_MAX_WORKFLOW_DEPTH,
  describeCalledWorkflow,
  type RunWorkflowRequest,
  type WorkflowCalls,
  type WorkflowRunResult,
} from "@/tools/workflow";
import type { WorkflowBlockConfig } from "./definition";

export interface WorkflowBlockDependencies {
  /** The same calls the workflow tool makes (lib/runtime/workflow-call-runtime.ts). */
  workflows: WorkflowCalls;
}

/**
 * Runs the child, or gives back the one an earlier attempt at this block ran: a durable parent
 * that died after its child ended but before its own checkpoint must not start a second child
 * (and pay for it twice) when it resumes.
 */
async function childRun(
  workflows: WorkflowCalls,
  request: RunWorkflowRequest,
  memo: BlockMemo | undefined,
): Promise<WorkflowRunResult> {
  const key = memo?.next("workflow");
  const kept = key === undefined ? undefined : (memo?.recall(key) as WorkflowRunResult | undefined);
  if (kept) return memo?.replaying ? { ...kept, usage: replayedUsage(kept.usage) } : kept;
  if (memo?.replaying) {
    throw new TrellisError(
      "not_recorded",
      "Not recorded: the replayed run did not run this child workflow here, so there is nothing to replay; it was not started. Run the workflow to run it.",
    );
  }
  const result = await workflows.runWorkflow(request);
  // A child cancelled because this block was (a timeout, the parent cancelled or parked) is not its
  // result: a resumed parent runs it again.
  if (memo && key !== undefined && !request.signal.aborted) {
    const { runId, status, output, error, usage } = result;
    await memo.remember(key, JSON.parse(JSON.stringify({ runId, status, output: output ?? null, error, usage })));
  }
  return result;
}

/**
 * The Workflow block (Sim's workflow block): another workflow of the workspace runs as a child
 * run, stored and inspectable like any other, its start inputs from the config and its output
 * the block's `output`. The child's tokens and cost are the block's usage, so the calling run's
 * totals include them once. Depth and cycles are limited as for workflow tools.
 */
export function createWorkflowBlockHandler({
  workflows,
}: WorkflowBlockDependencies): BlockHandler<WorkflowBlockConfig> {
  const maxDepth = workflows.maxDepth ?? DEFAULT_MAX_WORKFLOW_DEPTH;
  return async ({ config, context }) => {
    const target = await describeCalledWorkflow(
      workflows,
      config.workflowId,
      () =>
        new BlockExecutionError(
          `Workflow block "${context.block.name}" calls workflow "${config.workflowId}", which is not in this workspace (deleted?); choose another workflow`,
          { code: "invalid_config" },
        ),
    );
    // Checked before the child starts, so a cycle names the whole chain rather than failing one level down.
    const chain = await workflows.callChain(context.runId, context.workflowId);
    checkWorkflowCall(chain, { workflowId: target.id, workflowName: target.name }, context.depth, maxDepth);
    // An input whose value is null (a field left unset, a reference to an unset value) is left out,
    // so the child's start-input default applies, as when the child runs on its own.
    const input = Object.fromEntries(
      Object.entries(config.inputs).filter(([, value]) => value !== null && value !== undefined),
    );
    const request: RunWorkflowRequest = {
      workflowId: target.id,
      target: config.target,
      input,
      depth: context.depth + 1,
      signal: context.signal,
      parentRunId: context.runId,
      ...(context.budget ? { budget: context.budget } : {}),
    };
    const result = await childRun(workflows, request, context.memo);
    if (result.status !== "succeeded") throw childRunFailure(target, result, result.usage);
    const link = { runId: result.runId, workflowId: target.id };
    return { output: { output: result.output, ...link, ...usageOutputFields(result.usage) }, usage: result.usage };
  };
}
