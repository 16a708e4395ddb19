import type { GuardedFetch } from "./guarded-fetch";
import { decodeBody } from "./response-body";

export interface DecodedFetchInit {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface DecodedFetchResponse {
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  /** Parsed JSON when the content type says JSON, text otherwise. */
  body: unknown;
}

/** A fetch for code and tools: JSON bodies encoded, JSON answers decoded, through the guard. */
export function createDecodedFetch(
  guardedFetch: GuardedFetch,
): (url: string, init?: DecodedFetchInit) => Promise<DecodedFetchResponse> {
  return async (url, init = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.body !== undefined && init.body !== null) {
      body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      if (typeof init.body !== "string" && !Object.keys(headers).some((name) => name.toLowerCase() === "content-type"))
        headers["content-type"] = "application/json";
    }
    const response = await guardedFetch({
      url,
      method: init.method,
      headers,
      body,
      timeoutMs: init.timeoutMs,
      signal: init.signal,
    });
    const host = new URL(response.url).host;
    return {
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      headers: response.headers,
      body: decodeBody(response.body, response.headers["content-type"], host),
    };
  };
}
