import "server-only";
import { readSetting, type EnvReader } from "./env";
import { missingKeyError } from "./provider-errors";
import { PROVIDERS, type ProviderConnection, type ProviderId } from "./provider-table";

/**
 * A provider's key and base URL from its settings (docs/CONTRACT.md section 4). A missing key the
 * provider requires is an error naming the variable; the base URL falls back to the default and
 * loses any trailing slash.
 */
export function providerConnection(env: EnvReader, provider: ProviderId, fetch?: typeof globalThis.fetch): ProviderConnection {
  const settings = PROVIDERS[provider];
  const apiKey = readSetting(env, settings.apiKeyVariable);
  if (!apiKey && settings.apiKeyRequired) throw missingKeyError(provider);
  const baseURL = (readSetting(env, settings.baseUrlVariable) ?? settings.defaultBaseUrl)?.replace(/\/+$/, "");
  return { apiKey, baseURL, fetch };
}
