import { readSetting, type EnvReader } from "./env";
import { isProviderId, PROVIDERS } from "./provider-table";

/**
 * The variable a provider still needs before its models can run, or undefined when it is ready:
 * its API key where one is required, or the base URL of a provider that has no default server.
 * Read through the same reader a run uses, so it agrees with what a run would find.
 */
export function missingProviderSetting(provider: string, env: EnvReader): string | undefined {
  if (!isProviderId(provider)) return undefined;
  const entry = PROVIDERS[provider];
  if (entry.apiKeyRequired && entry.apiKeyVariable && !readSetting(env, entry.apiKeyVariable)) return entry.apiKeyVariable;
  if (entry.baseUrlVariable && !entry.defaultBaseUrl && !readSetting(env, entry.baseUrlVariable)) return entry.baseUrlVariable;
  return undefined;
}

/** The models, each whose provider is not set up marked with the variable to set (`missingSetting`). */
export function withProviderReadiness<Model extends { provider: string }>(
  models: readonly Model[],
  env: EnvReader,
): Array<Model & { missingSetting?: string }> {
  const missing = new Map<string, string | undefined>();
  return models.map((model) => {
    if (!missing.has(model.provider)) missing.set(model.provider, missingProviderSetting(model.provider, env));
    const variable = missing.get(model.provider);
    return variable ? { ...model, missingSetting: variable } : model;
  });
}
