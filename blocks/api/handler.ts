import "server-only";
import { BlockExecutionError, TimeoutError, TrellisError, type BlockHandler } from "@/executor";
import { decodeBody, redactHeaders, type GuardedFetch, type OutboundResponse } from "@/net";
import type { ApiConfig } from "./definition";
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

function encodeBody(config: ApiConfig, headers: Record<string, string>): string | undefined {
  if (config.body === undefined || config.body === null || config.body === "") return undefined;
  if (config.method === "GET" || config.method === "HEAD") {
    throw new BlockExecutionError(`A ${config.method} request cannot have a body; use POST, PUT or PATCH, or remove the body`, { code: "invalid_config" });
  }
  if (typeof config.body === "string") return config.body;
  if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) headers["content-type"] = "application/json";
  return JSON.stringify(config.body);
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

/**
 * A copy of the config fit for traces: credential headers (Authorization, Cookie, X-Api-Key and
 * the like) and headers whose raw config value used a `{{SECRET}}` are redacted.
 */
export function apiTraceInput(config: ApiConfig, rawConfig?: { headers?: unknown }): ApiConfig {
  const rawHeaders = rawConfig?.headers && typeof rawConfig.headers === "object" ? (rawConfig.headers as Record<string, unknown>) : {};
  const fromSecret = new Set(
    Object.entries(rawHeaders)
      .filter(([, value]) => typeof value === "string" && value.includes("{{"))
      .map(([name]) => name),
  );
  return { ...config, headers: redactHeaders(config.headers, fromSecret) };
}

/**
 * The API block: one HTTP request through the outbound guard, retried `retries` times on network
 * errors, timeouts and 408/429/502/503/504. A 4xx or 5xx answer fails the block (take its `error`
 * edge to handle it); JSON answers are parsed into `data`.
 */
export function createApiHandler(deps: ApiHandlerDeps): BlockHandler<ApiConfig> {
  const sleep = deps.sleep ?? defaultSleep;
  return async ({ config, context }) => {
    const headers: Record<string, string> = { accept: "application/json, text/plain;q=0.9, */*;q=0.5", ...config.headers };
    const body = encodeBody(config, headers);
    const target = describeTarget(config.url);
    // Test runs answer from the block's sample instead of sending (simulated-send.ts).
    const send = context.simulation ? simulatedSend(context.simulation) : deps.fetch;

    for (let attempt = 0; ; attempt++) {
      let response: OutboundResponse | undefined;
      try {
        response = await send({ url: config.url, method: config.method, headers, body, timeoutMs: config.timeoutMs, signal: context.signal });
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
        throw new BlockExecutionError(`${config.method} ${target} answered ${response.status}${snippet ? `: ${snippet}` : ""}`, {
          code: "http_error",
          retryable: RETRYABLE_STATUSES.has(response.status) || response.status >= 500,
        });
      }
      const responseHeaders = { ...response.headers };
      // A session cookie is a credential; outputs end up in traces.
      if (responseHeaders["set-cookie"] !== undefined) responseHeaders["set-cookie"] = "[redacted]";
      return { output: { status: response.status, headers: responseHeaders, data } };
    }
  };
}
