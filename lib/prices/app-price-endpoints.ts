import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, getRepositories } from "@/lib/db";
import { loadRunEnvironment } from "@/lib/runtime/run-environment";
import { priceEndpoints } from "./price-endpoints";

/** The price endpoints over the app's database; provider keys are read as a run of the workspace reads them. */
export const appPriceEndpoints = priceEndpoints(
  () => getRepositories().priceOverrides,
  async (workspaceId) =>
    (await loadRunEnvironment(getRepositories().secrets, workspaceId, (name) => process.env[name])).providerEnv,
  auditRequestsTo(getPrisma),
);
