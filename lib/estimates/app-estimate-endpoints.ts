import "server-only";
import { getRepositories } from "@/lib/db";
import { resolvePricing } from "@/providers";
import { estimateEndpoints, type EstimateDependencies } from "./estimate-endpoints";

/**
 * The estimate endpoint over the app's database. The one place the estimate learns a model's
 * price: the workspace's own overrides, then the operator's file and the catalog, as a run prices it.
 */
export function appEstimateDependencies(): EstimateDependencies {
  return {
    repositories: getRepositories(),
    priceOf: async (workspaceId) => {
      const overrides = await getRepositories().priceOverrides.table(workspaceId);
      return (modelId) => resolvePricing(modelId, { overrides });
    },
  };
}

export const appEstimateEndpoints = estimateEndpoints(appEstimateDependencies);
