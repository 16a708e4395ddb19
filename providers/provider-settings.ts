import "server-only";
import { ProviderCallError } from "@/core";
import { createGuardedWebFetch, type AllowList } from "@/net";
import { providerEnvOf, readSetting, type EnvReader, type ProviderEnvInput } from "./env";
import { missingKeyError } from "./provider-errors";
import { PROVIDER_IDS, PROVIDERS, type ProviderConnection, type ProviderId } from "./provider-table";

/**
 * A provider's key and base URL from its settings (docs/CONTRACT.md section 4). A missing key the
 * provider requires is an error naming the variable. The base URL is the operator's (or the
 * provider's default), without a trailing slash; a workspace that stored one as a secret is
 * refused by name, so no user can point the server's requests at an address of their choosing.
 */
export function providerConnection(
  input: ProviderEnvInput,
  provider: ProviderId,
  fetch?: typeof globalThis.fetch,
): ProviderConnection {
  const { operator, workspace } = providerEnvOf(input);
  const settings = PROVIDERS[provider];
  if (readSetting(workspace, settings.baseUrlVariable)) throw workspaceBaseUrlError(provider);
  const apiKey = readSetting(workspace, settings.apiKeyVariable) ?? readSetting(operator, settings.apiKeyVariable);
  if (!apiKey && settings.apiKeyRequired) throw missingKeyError(provider);
  return { apiKey, baseURL: operatorBaseUrl(operator, provider), fetch };
}

/** The workspace stored a provider's base URL as a secret: refused, never sent to. */
export function workspaceBaseUrlError(provider: ProviderId): ProviderCallError {
  const { label, baseUrlVariable } = PROVIDERS[provider];
  return new ProviderCallError(
    provider,
    `${label} models are refused in this workspace: it stores a secret named ${baseUrlVariable}, but a provider's server is the operator's to choose ` +
      `(the ${baseUrlVariable} variable of the server's environment), never a workspace's. Delete the secret; ask the operator to set ${baseUrlVariable} if ${label} should be reached elsewhere.`,
    { code: "outbound_refused" },
  );
}

/** The operator's base URL for a provider (or its default), checked to be an http(s) URL; no trailing slash. */
export function operatorBaseUrl(operator: EnvReader, provider: ProviderId): string | undefined {
  const { label, baseUrlVariable, defaultBaseUrl } = PROVIDERS[provider];
  const value = readSetting(operator, baseUrlVariable) ?? defaultBaseUrl;
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ProviderCallError(
      provider,
      `${label}: ${baseUrlVariable} must be an http(s) URL, for example ${defaultBaseUrl ?? "http://127.0.0.1:8000/v1"}`,
      {
        code: "invalid_configuration",
      },
    );
  }
  return value.replace(/\/+$/, "");
}

/** Every provider server the operator configured (or a provider's default): the hosts model calls may reach. */
export function operatorEndpoints(operator: EnvReader): string[] {
  return PROVIDER_IDS.flatMap((provider) => {
    try {
      const url = operatorBaseUrl(operator, provider);
      return url ? [url] : [];
    } catch {
      return []; // a malformed one fails the provider's own calls, naming the variable
    }
  });
}

/**
 * The fetch model and embedding calls go through: the outbound guard, with OUTBOUND_ALLOW_HOSTS and
 * the operator's provider servers allowed (an operator's OLLAMA_BASE_URL on loopback works), and
 * nothing a workspace chose.
 */
export function createProviderFetch(operator: EnvReader, allowHosts?: string | AllowList): typeof globalThis.fetch {
  return createGuardedWebFetch({ allowHosts, trustedEndpoints: operatorEndpoints(operator) });
}

/**
 * createProviderFetch per set of operator servers, made once and shared (one connection pool)
 * by every run and embedder of the process; a changed environment gets its own.
 */
export function providerFetchCache(allowHosts?: string | AllowList): (operator: EnvReader) => typeof globalThis.fetch {
  const made = new Map<string, typeof globalThis.fetch>();
  return (operator) => {
    const key = operatorEndpoints(operator).join(" ");
    let fetch = made.get(key);
    if (!fetch) made.set(key, (fetch = createProviderFetch(operator, allowHosts)));
    return fetch;
  };
}
