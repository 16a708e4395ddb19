import { providerEnvOf, readSetting, type ProviderEnvInput } from "./env";
import { isProviderId, PROVIDERS } from "./provider-table";

/**
 * The variable a provider still needs before its models can run, or undefined when it is ready:
 * its API key where one is required (the workspace's or the operator's), or the base URL of a
 * provider that has no default server (the operator's alone). A workspace that stored a base URL
 * as a secret has that provider refused (provider-settings.ts), so it is marked with that variable.
 * Read through the same readers a run uses, so it agrees with what a run would find.
 */
export function missingProviderSetting(provider: string, input: ProviderEnvInput): string | undefined {
  if (!isProviderId(provider)) return undefined;
  const { operator, workspace } = providerEnvOf(input);
  const entry = PROVIDERS[provider];
  if (readSetting(workspace, entry.baseUrlVariable)) return entry.baseUrlVariable;
  const apiKey = readSetting(workspace, entry.apiKeyVariable) ?? readSetting(operator, entry.apiKeyVariable);
  if (entry.apiKeyRequired && entry.apiKeyVariable && !apiKey) return entry.apiKeyVariable;
  if (entry.baseUrlVariable && !entry.defaultBaseUrl && !readSetting(operator, entry.baseUrlVariable))
    return entry.baseUrlVariable;
  return undefined;
}

/** The models, each whose provider is not set up marked with the variable to set (`missingSetting`). */
export function withProviderReadiness<Model extends { provider: string }>(
  models: readonly Model[],
  env: ProviderEnvInput,
): Array<Model & { missingSetting?: string }> {
  const missing = new Map<string, string | undefined>();
  return models.map((model) => {
    if (!missing.has(model.provider)) missing.set(model.provider, missingProviderSetting(model.provider, env));
    const variable = missing.get(model.provider);
    return variable ? { ...model, missingSetting: variable } : model;
  });
}
