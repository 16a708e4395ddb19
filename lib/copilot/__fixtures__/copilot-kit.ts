import { testMember } from "@/lib/http/test-members";
import { estimateDocument } from "@/lib/estimates/estimate-endpoints";
import type { RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { storedThingsCheck } from "@/lib/workflows/service";
import { resolvePricing } from "@/providers";
import { copilotEndpoints } from "../copilot-endpoints";
import { createCopilot } from "../copilot-service";
import { runtimeModelResolver } from "../runtime-models";

/** The copilot endpoint over a run test kit: its database, its runtime's models (the test LLM server), catalog prices. */
export function copilotOver(kit: RunTestKit) {
  const repositories = kit.database.repositories;
  const estimateDependencies = { repositories, priceOf: () => (modelId: string) => resolvePricing(modelId) };
  const endpoints = copilotEndpoints(() =>
    createCopilot({
      repositories,
      resolveModel: runtimeModelResolver(kit.runtime),
      mcpServerNames: () => [],
      checkStored: storedThingsCheck(repositories),
      estimate: (workspaceId, workflowId, document) =>
        estimateDocument(estimateDependencies, workspaceId, workflowId, document),
    }),
  );
  return {
    ask(workspaceId: string, workflowId: string, body: unknown, role: "viewer" | "editor" = "editor") {
      const request = new Request(`http://localhost/api/workflows/${workflowId}/copilot`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return endpoints.ask(request, { id: workflowId }, testMember(workspaceId, role));
    },
  };
}
