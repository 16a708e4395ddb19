import "server-only";
import { approvalDecisionSchema } from "@/contract";
import type { Repositories } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { RunService } from "./run-service";

const MAX_DECISION_BYTES = 64 * 1024;

export interface ApprovalEndpointDependencies {
  runs: RunService;
  repositories: Pick<Repositories, "runs">;
}

/**
 * GET /api/runs/:id/approvals lists the tool calls waiting for a person;
 * POST /api/runs/:id/approvals/:toolCallId `{ approved, reason? }` decides one.
 */
export function approvalEndpoints(deps: () => ApprovalEndpointDependencies) {
  return {
    list: endpoint("listRunApprovals", async (_request, { id: runId }, { workspace }) => {
      const { runs, repositories } = deps();
      const run = await repositories.runs.get(workspace.id, runId); // 404 for an unknown run or another workspace's
      return Response.json({ runId, status: run.status, approvals: await runs.pendingApprovals(runId) });
    }),
    decide: endpoint("decideRunApproval", async (request, { id: runId, toolCallId }, { workspace }) => {
      const decision = await readJsonRequest(request, approvalDecisionSchema, {
        subject: "The decision",
        maxBytes: MAX_DECISION_BYTES,
      });
      const { runs, repositories } = deps();
      await repositories.runs.get(workspace.id, runId);
      const approval = await runs.decideApproval(workspace.id, runId, toolCallId, decision);
      const reason = decision.reason?.trim();
      return Response.json({
        runId,
        toolCallId,
        toolName: approval.toolName,
        approved: decision.approved,
        ...(reason ? { reason } : {}),
      });
    }),
  };
}

export type ApprovalEndpoints = ReturnType<typeof approvalEndpoints>;
