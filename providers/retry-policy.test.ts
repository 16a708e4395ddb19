import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICY, retryAfterMs, retryDelayMs } from "./retry-policy";

const apiError = (status: number, headers: Record<string, string> = {}) =>
  new APICallError({
    message: "x",
    url: "http://x",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    isRetryable: status === 429 || status >= 500,
  });

describe("retry policy", () => {
  it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms", () => {
    expect(retryAfterMs(apiError(429, { "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(apiError(429, { "Retry-After-Ms": "150" }))).toBe(150);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(apiError(429, { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
  });

  it("waits at least what Retry-After asks, plus bounded jitter", () => {
    const low = retryDelayMs({ ...DEFAULT_RETRY_POLICY, random: () => 0 }, 0, apiError(429, { "retry-after": "2" }));
    const high = retryDelayMs(
      { ...DEFAULT_RETRY_POLICY, random: () => 0.999 },
      0,
      apiError(429, { "retry-after": "2" }),
    );
    expect(low).toBe(2000);
    expect(high).toBeGreaterThan(2000);
    expect(high).toBeLessThanOrEqual(2400);
  });

  it("backs off exponentially with jitter, capped, and gives up when told to", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, random: () => 1 };
    expect([0, 1, 2].map((attempt) => retryDelayMs({ ...policy, maxRetries: 9 }, attempt, apiError(503)))).toEqual([
      500, 1000, 2000,
    ]);
    expect(retryDelayMs({ ...policy, maxRetries: 9 }, 8, apiError(503))).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
    expect(retryDelayMs({ ...policy, random: () => 0 }, 0, apiError(503))).toBe(250);
    expect(retryDelayMs(policy, DEFAULT_RETRY_POLICY.maxRetries, apiError(503))).toBeUndefined();
    expect(retryDelayMs(policy, 0, apiError(400))).toBeUndefined();
    expect(retryDelayMs(policy, 0, apiError(429, { "retry-after": "600" }))).toBeUndefined();
  });
});
