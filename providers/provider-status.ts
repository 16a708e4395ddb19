import type { ProviderKeySource, ProviderStatusEntry } from "@/contract";
import { providerEnvOf, readSetting, type ProviderEnvInput } from "./env";
import { missingProviderSetting } from "./provider-readiness";
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from "./provider-table";

/**
 * Where a provider's key comes from for one workspace, read as a run reads it (the workspace's
 * secret first, then the server's environment); the words are contract/providers.ts's.
 */
export function providerKeySource(provider: ProviderId, input: ProviderEnvInput): ProviderKeySource {
  const { operator, workspace } = providerEnvOf(input);
  const { apiKeyVariable, apiKeyRequired } = PROVIDERS[provider];
  if (readSetting(workspace, apiKeyVariable)) return "workspace";
  if (readSetting(operator, apiKeyVariable)) return "environment";
  return apiKeyRequired ? "missing" : "not-needed";
}

/** Every provider with where its key comes from; names of variables only, never a value. */
export function providerStatuses(input: ProviderEnvInput): ProviderStatusEntry[] {
  return PROVIDER_IDS.map((id) => {
    const entry = PROVIDERS[id];
    const missingSetting = missingProviderSetting(id, input);
    return {
      id,
      label: entry.label,
      logo: entry.logo,
      ...(entry.apiKeyVariable ? { keyVariable: entry.apiKeyVariable } : {}),
      keyRequired: entry.apiKeyRequired,
      keySource: providerKeySource(id, input),
      ...(missingSetting ? { missingSetting } : {}),
      testable: entry.connectionCheck !== undefined,
    };
  });
}
