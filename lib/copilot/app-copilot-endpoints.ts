import "server-only";
import { getRepositories } from "@/lib/db";
import { appEstimateDependencies } from "@/lib/estimates/app-estimate-endpoints";
import { estimateDocument } from "@/lib/estimates/estimate-endpoints";
import { getRuntime } from "@/lib/runtime/runtime";
import { appMcpServerNames, appToolTypes, storedThingsCheck } from "@/lib/workflows/service";
import { copilotEndpoints } from "./copilot-endpoints";
import { createCopilot } from "./copilot-service";
import { runtimeModelResolver } from "./runtime-models";

/** The copilot over the app's database and runtime. */
export const appCopilotEndpoints = copilotEndpoints(() => {
  const repositories = getRepositories();
  const runtime = getRuntime();
  return createCopilot({
    repositories,
    resolveModel: runtimeModelResolver(runtime),
    mcpServerNames: (workspaceId) => [...(appMcpServerNames(workspaceId) ?? [])],
    checkStored: storedThingsCheck(repositories, appMcpServerNames, appToolTypes),
    estimate: (workspaceId, workflowId, document) =>
      estimateDocument(appEstimateDependencies(), workspaceId, workflowId, document),
  });
});
