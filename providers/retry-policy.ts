import { APICallError } from "@ai-sdk/provider";

/**
 * Bounded, jittered retries for rate limits (429, honouring Retry-After), 5xx answers and
 * connection failures. The AI SDK's own retries honour Retry-After but add no jitter, so calls go
 * through this instead with the SDK's `maxRetries` at 0.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay when the provider gives no Retry-After. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails at once. */
  maxRetryAfterMs: number;
  /** Uniform random in [0, 1); injectable so tests are deterministic. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
};

export function isRetryableError(error: unknown): boolean {
  return APICallError.isInstance(error) && error.isRetryable;
}

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** The wait the provider asked for, in ms (`retry-after-ms`, or `retry-after` as seconds or a date). */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(error)) return undefined;
  const exact = Number.parseFloat(header(error.responseHeaders, "retry-after-ms") ?? "");
  if (Number.isFinite(exact) && exact >= 0) return exact;
  const value = header(error.responseHeaders, "retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (0-based), or undefined to give up. With Retry-After: that
 * wait plus up to 20% jitter (never less than asked); otherwise exponential backoff with equal
 * jitter (half fixed, half random).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, error: unknown): number | undefined {
  if (attempt >= policy.maxRetries || !isRetryableError(error)) return undefined;
  const asked = retryAfterMs(error);
  if (asked !== undefined) {
    if (asked > policy.maxRetryAfterMs) return undefined;
    return asked + policy.random() * Math.min(asked * 0.2, 1_000);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + policy.random() * (ceiling / 2);
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Runs `attempt` until it succeeds, the policy gives up, or the signal aborts. */
export async function withRetries<T>(
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: () => PromiseLike<T>,
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = signal?.aborted ? undefined : retryDelayMs(policy, retry, error);
      if (delay === undefined) throw error;
      await sleep(delay, signal);
    }
  }
}
