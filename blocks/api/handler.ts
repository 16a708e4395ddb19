import "server-only";
import { BlockExecutionError, TimeoutError, TrellisError, type BlockHandler } from "@/executor";
import {
  decodeBody,
  isCredentialHeader,
  REDACTED,
  redactHeaders,
  type GuardedFetch,
  type OutboundResponse,
} from "@/net";
import { buildApiRequest, type ApiRequest } from "./api-request";
import type { ApiConfig } from "./definition";
import { recordedSend } from "./recorded-send";
import { simulatedSend } from "./simulated-send";

export interface ApiHandlerDeps {
  /** createGuardedFetch(...) from net/, configured with OUTBOUND_ALLOW_HOSTS. */
  fetch: GuardedFetch;
  /** Waits between retries; injected so tests need not sleep. Default: real timers. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Statuses worth another try: the server said so, or a gateway could not reach it. */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 10_000;

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

function retryWaitMs(attempt: number, response: OutboundResponse | undefined): number {
  const retryAfter = response?.headers["retry-after"];
  const seconds = retryAfter !== undefined ? Number(retryAfter) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS);
  return Math.min(250 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

/** Where a request went, for messages: host and path, never the query (it may hold keys). */
function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "the URL";
  }
}

/** Names in a raw config record whose value used a `{{SECRET}}`. */
function filledFromSecret(raw: unknown): Set<string> {
  const record = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  return new Set(
    Object.entries(record)
      .filter(([, value]) => typeof value === "string" && value.includes("{{"))
      .map(([name]) => name),
  );
}

/**
 * A copy of the config fit for traces: credential headers and query parameters (Authorization,
 * Cookie, X-Api-Key, api_key, token and the like) and those whose raw config value used a
 * `{{SECRET}}` are redacted.
 */
export function apiTraceInput(config: ApiConfig, rawConfig?: { headers?: unknown; query?: unknown }): ApiConfig {
  const secretQuery = filledFromSecret(rawConfig?.query);
  const query = config.query
    ? Object.fromEntries(
        Object.entries(config.query).map(([name, value]) => [
          name,
          isCredentialHeader(name) || secretQuery.has(name) ? REDACTED : value,
        ]),
      )
    : undefined;
  return {
    ...config,
    headers: redactHeaders(config.headers, filledFromSecret(rawConfig?.headers)),
    ...(query ? { query } : {}),
  };
}

/**
 * Sends the block's request through the outbound guard: the one place an API block reaches the
 * network (a test run that simulates API calls stands in for this).
 */
export function sendApiRequest(
  fetch: GuardedFetch,
  request: ApiRequest,
  signal: AbortSignal,
): Promise<OutboundResponse> {
  return fetch({ ...request, signal });
}

/**
 * The API block: one HTTP request (query rows added to the URL, the body encoded by its
 * `bodyType`) through the outbound guard, retried `retries` times on network
 * errors, timeouts and 408/429/502/503/504. A 4xx or 5xx answer fails the block (take its `error`
 * edge to handle it); JSON answers are parsed into `data`.
 */
export function createApiHandler(deps: ApiHandlerDeps): BlockHandler<ApiConfig> {
  const sleep = deps.sleep ?? defaultSleep;
  return async ({ config, context }) => {
    const request = await buildApiRequest(config);
    const target = describeTarget(config.url);
    // Test runs answer from the block's sample instead of sending (simulated-send.ts).
    const send = context.simulation ? simulatedSend(context.simulation) : recordedSend(deps.fetch, context.memo);

    for (let attempt = 0; ; attempt++) {
      let response: OutboundResponse | undefined;
      try {
        response = await sendApiRequest(send, request, context.signal);
      } catch (error) {
        const retryable = error instanceof TimeoutError || (error instanceof TrellisError && error.retryable);
        if (!retryable || attempt >= config.retries || context.signal.aborted) throw error;
        await sleep(retryWaitMs(attempt, undefined), context.signal);
        continue;
      }
      if (RETRYABLE_STATUSES.has(response.status) && attempt < config.retries) {
        await sleep(retryWaitMs(attempt, response), context.signal);
        continue;
      }
      const host = new URL(response.url).host;
      const data = config.method === "HEAD" ? null : decodeBody(response.body, response.headers["content-type"], host);
      if (response.status >= 400) {
        const detail = typeof data === "string" ? data : JSON.stringify(data);
        const snippet = detail.trim().slice(0, 300);
        throw new BlockExecutionError(
          `${config.method} ${target} answered ${response.status}${snippet ? `: ${snippet}` : ""}`,
          {
            code: "http_error",
            retryable: RETRYABLE_STATUSES.has(response.status) || response.status >= 500,
          },
        );
      }
      const responseHeaders = { ...response.headers };
      // A session cookie is a credential; outputs end up in traces.
      if (responseHeaders["set-cookie"] !== undefined) responseHeaders["set-cookie"] = "[redacted]";
      return { output: { status: response.status, headers: responseHeaders, data } };
    }
  };
}
