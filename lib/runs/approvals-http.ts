import { approvalDecisionSchema } from "@/contract";
import type { Repositories } from "@/lib/db";
import { handleErrors, RequestError } from "@/lib/http/errors";
import { readJsonBody } from "@/lib/http/read-json";
import { zodIssues } from "@/lib/workflows/parse-document";
import type { RunService } from "./run-service";

export interface ApprovalsHttpDependencies {
  runs: RunService;
  repositories: Pick<Repositories, "runs">;
}

/**
 * GET /api/runs/:id/approvals lists the tool calls waiting for a person;
 * POST /api/runs/:id/approvals/:toolCallId `{ approved, reason? }` decides one.
 */
export function approvalsHttp(deps: () => ApprovalsHttpDependencies) {
  return {
    list: handleErrors(async (runId: string) => {
      const { runs, repositories } = deps();
      const run = await repositories.runs.get(runId); // 404 for an unknown run
      return Response.json({ runId, status: run.status, approvals: runs.approvals.list(runId) });
    }),
    decide: handleErrors(async (request: Request, runId: string, toolCallId: string) => {
      const parsed = approvalDecisionSchema.safeParse(await readJsonBody(request, 64 * 1024));
      if (!parsed.success) throw new RequestError(400, "invalid_request", "The decision is invalid: send { approved: boolean, reason?: string }.", zodIssues(parsed.error));
      const { runs, repositories } = deps();
      await repositories.runs.get(runId);
      const approval = await runs.approvals.resolve(runId, toolCallId, parsed.data);
      const reason = parsed.data.reason?.trim();
      return Response.json({ runId, toolCallId, toolName: approval.toolName, approved: parsed.data.approved, ...(reason ? { reason } : {}) });
    }),
  };
}
