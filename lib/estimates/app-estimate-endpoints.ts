import "server-only";
import { getRepositories } from "@/lib/db";
import { resolvePricing } from "@/providers";
import { estimateEndpoints } from "./estimate-endpoints";

/**
 * The estimate endpoint over the app's database. The one place the estimate learns a model's
 * price: a workspace's own prices, once they exist, belong here.
 */
export const appEstimateEndpoints = estimateEndpoints(() => ({
  repositories: getRepositories(),
  priceOf: () => (modelId) => resolvePricing(modelId),
}));
