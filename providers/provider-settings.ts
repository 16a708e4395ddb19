import { PROVIDER_SETTINGS, readSetting, type EnvReader, type ProviderId } from "./env";
import { missingKeyError } from "./provider-errors";

/** A provider's base URL from its setting or default, without a trailing slash. */
export function providerBaseUrl(env: EnvReader, provider: ProviderId): string | undefined {
  const settings = PROVIDER_SETTINGS[provider];
  return (readSetting(env, settings.baseUrlVariable) ?? settings.defaultBaseUrl)?.replace(/\/+$/, "");
}

/** A provider's API key; a missing key the provider requires is an error naming the variable. */
export function providerApiKey(env: EnvReader, provider: ProviderId): string | undefined {
  const settings = PROVIDER_SETTINGS[provider];
  const key = readSetting(env, settings.apiKeyVariable);
  if (!key && settings.apiKeyRequired) throw missingKeyError(provider);
  return key;
}
