import "server-only";
import type { ProviderConnectionCheck } from "@/contract";
import { providerConnection } from "./provider-settings";
import { PROVIDERS, type ProviderId } from "./provider-table";
import type { ProviderEnvInput } from "./env";

const CHECK_TIMEOUT_MS = 10_000;

/**
 * "Test connection": one free request (the provider's model list, providers/provider-table.ts)
 * with the key a run of the workspace would use, through `fetch` (the outbound guard). Its message
 * never holds the key nor the server's body (some providers echo part of the key).
 */
export async function checkProviderConnection(
  provider: ProviderId,
  env: ProviderEnvInput,
  fetch: typeof globalThis.fetch,
  now: () => number = Date.now,
): Promise<ProviderConnectionCheck> {
  const started = now();
  const done = (ok: boolean, message: string, status?: number): ProviderConnectionCheck => ({
    ok,
    message,
    ...(status === undefined ? {} : { status }),
    durationMs: Math.max(0, Math.round(now() - started)),
  });
  const { label, connectionCheck } = PROVIDERS[provider];
  if (!connectionCheck) return done(true, `${label} runs inside Trellis: there is no server to reach.`);
  let url: string;
  let headers: Record<string, string>;
  try {
    const connection = providerConnection(env, provider);
    if (!connection.baseURL) return done(false, `${label} has no server set.`);
    url = `${connection.baseURL}${connectionCheck.path}`;
    headers = connectionCheck.headers(connection.apiKey);
  } catch (error) {
    return done(false, errorText(error));
  }
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    await response.body?.cancel();
    if (response.ok) return done(true, `Connected: ${label} answered.`, response.status);
    if (response.status === 401 || response.status === 403)
      return done(false, `${label} refused the key (HTTP ${response.status}).`, response.status);
    return done(false, `${label} answered HTTP ${response.status}.`, response.status);
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "no answer in 10 s" : errorText(error);
    return done(false, `Could not reach ${label}: ${reason}.`);
  }
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
