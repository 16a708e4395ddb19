import "server-only";
import { entryBlockOf, startConfigSchema } from "@/blocks";
import { isTrellisError, TrellisError } from "@/executor";
import type { Repositories } from "@/lib/db";
import type { RunService } from "@/lib/runs/run-service";
import { checkWorkflowCall, type WorkflowCallLink, type WorkflowCalls } from "@/tools/workflow";

/**
 * What calling another workflow (the workflow tool and the Workflow block) needs from the server,
 * for runs of one workspace: that workspace's workflows (another's is not found), and child runs
 * started through the run service, so each is stored and inspectable like any other run, is
 * cancelled with its parent, and knows its place in the call chain.
 */
export function workflowCallRuntime(
  workspaceId: string,
  repositories: Pick<Repositories, "workflows">,
  runs: () => RunService,
  maxDepth: number,
): WorkflowCalls {
  const liveChain = (runId: string): WorkflowCallLink[] =>
    runs()
      .callChain(runId)
      .map(({ workflowId, workflowName }) => ({ workflowId, workflowName }));
  return {
    maxDepth,
    async callChain(runId, workflowId) {
      const chain = liveChain(runId);
      if (chain.length > 0) return chain;
      // A run this process does not hold (a handler driven directly): the caller alone.
      return [{ workflowId, workflowName: (await repositories.workflows.get(workspaceId, workflowId)).name }];
    },
    async describeWorkflow(workflowId) {
      const workflow = await repositories.workflows.get(workspaceId, workflowId);
      const start = entryBlockOf(workflow.blocks);
      const inputs = start ? (startConfigSchema.safeParse(start.config).data?.inputs ?? []) : [];
      return { id: workflow.id, name: workflow.name, description: workflow.description || undefined, inputs };
    },
    async runWorkflow({ workflowId, input, depth, signal, parentRunId, target, budget }) {
      const workflow = await repositories.workflows.get(workspaceId, workflowId);
      // The caller checked when it prepared the call; checked again where the run actually starts.
      checkWorkflowCall(liveChain(parentRunId), { workflowId, workflowName: workflow.name }, depth - 1, maxDepth);
      const live = await runs()
        .start(workspaceId, workflowId, input, {
          depth,
          parentRunId,
          signal,
          target: target === "deployment" ? "active-deployment" : "draft",
          ...(budget ? { parentBudget: budget } : {}),
        })
        .catch((error: unknown) => {
          // The run service's message names no workflow (a hook caller sees it too); here the caller's author does.
          if (isTrellisError(error) && error.code === "not_deployed") {
            throw new TrellisError(
              "not_deployed",
              `Workflow "${workflow.name}" has no active deployment to run: deploy it, or run its draft instead`,
            );
          }
          throw error;
        });
      const stored = await live.done;
      const status = stored.status === "succeeded" || stored.status === "cancelled" ? stored.status : "failed";
      const usage = {
        tokens: stored.tokens,
        cost: stored.cost,
        ...(stored.unpriced ? { unpriced: true } : {}),
        ...(stored.estimated ? { estimated: true } : {}),
      };
      return { runId: stored.id, status, output: stored.output, error: stored.error, usage };
    },
  };
}
