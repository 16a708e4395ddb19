import { expect } from "vitest";
import type { WorkflowEstimate } from "@/contract";
import { testMember } from "@/lib/http/test-members";
import type { RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { resolvePricing } from "@/providers";
import { estimateEndpoints } from "../estimate-endpoints";

/** The estimate endpoint over a run test kit's database, priced by the catalog. */
export function estimateOver(kit: RunTestKit) {
  const endpoints = estimateEndpoints(() => ({
    repositories: kit.database.repositories,
    priceOf: () => (modelId) => resolvePricing(modelId),
  }));
  return {
    /** The raw answer, for error cases. */
    ask(workspaceId: string, workflowId: string, body: unknown, role: "viewer" | "editor" = "viewer") {
      const request = new Request(`http://localhost/api/workflows/${workflowId}/estimate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return endpoints.estimate(request, { id: workflowId }, testMember(workspaceId, role));
    },
    async estimate(workspaceId: string, workflowId: string, input: Record<string, unknown>): Promise<WorkflowEstimate> {
      const answer = await this.ask(workspaceId, workflowId, { input });
      expect(answer.status).toBe(200);
      return (await answer.json()) as WorkflowEstimate;
    },
  };
}

export interface FinishedRun {
  status: string;
  cost: { total: number } | null;
  spans: Array<{ kind: string; blockId: string; cost: { total: number } | null }>;
}

/** Runs the workflow to its end with this input, as the editor's Run does. */
export async function runToEnd(
  kit: RunTestKit,
  workspaceId: string,
  workflowId: string,
  input: Record<string, unknown>,
): Promise<FinishedRun> {
  const request = new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input, wait: true }),
  });
  const answer = await kit.endpoints.start(request, { id: workflowId }, testMember(workspaceId, "editor"));
  expect(answer.status).toBe(200);
  const run = (await answer.json()) as FinishedRun;
  expect([run.status, (run as { error?: unknown }).error]).toEqual(["succeeded", null]);
  return run;
}
