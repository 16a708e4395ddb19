import "server-only";
import { getRepositories } from "@/lib/db";
import { loadRunEnvironment } from "@/lib/runtime/run-environment";
import { providerFetchCache } from "@/providers";
import { providerEndpoints } from "./provider-endpoints";

/** The provider endpoints over the app's database; keys are read as a run of the workspace reads them. */
export const appProviderEndpoints = providerEndpoints(
  async (workspaceId) =>
    (await loadRunEnvironment(getRepositories().secrets, workspaceId, (name) => process.env[name])).providerEnv,
  providerFetchCache(process.env.OUTBOUND_ALLOW_HOSTS),
);
