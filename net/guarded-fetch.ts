import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { isReservedRequestHeader, RESERVED_HEADER_MESSAGE } from "@/contract";
import { BlockExecutionError, CancelledError, OutboundRefusedError, TimeoutError, TrellisError } from "@/core";
import { parseAllowList, type AllowList } from "./allow-list";
import { createOutboundGuard, type HostLookup, type OutboundGuard, type VettedTarget } from "./outbound-guard";

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** Whole exchange, redirects and body included. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  redirects: number;
}

export type GuardedFetch = (request: OutboundRequest) => Promise<OutboundResponse>;

export interface OutboundConfig {
  /** OUTBOUND_ALLOW_HOSTS text, or an already parsed list. */
  allowHosts?: string | AllowList;
  /** Injected in tests; dns.lookup by default. */
  lookup?: HostLookup;
  defaultTimeoutMs?: number;
  defaultMaxResponseBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Dropped when a redirect leaves the origin, as browsers do, so credentials stay with their host. */
const ORIGIN_BOUND_HEADERS = ["authorization", "proxy-authorization", "cookie"];

/** Reads OUTBOUND_ALLOW_HOSTS; throws AllowListError naming a malformed entry. */
export function outboundConfigFromEnvironment(environment: NodeJS.ProcessEnv = process.env): OutboundConfig {
  return { allowHosts: parseAllowList(environment.OUTBOUND_ALLOW_HOSTS) };
}

/** Hands the connection the vetted address instead of resolving the name again. */
function pinnedLookup(target: VettedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

function withoutHeaders(headers: Record<string, string>, names: ReadonlyArray<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}

type ResponseBody = AsyncIterable<Uint8Array> & { destroy(): void; on(event: "error", listener: () => void): unknown };

/** Drops a body we will not read; destroying it unread raises an abort error nobody should see. */
function discard(body: ResponseBody): void {
  body.on("error", () => undefined);
  body.destroy();
}

async function readCapped(body: ResponseBody, maxBytes: number, host: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      discard(body);
      throw new BlockExecutionError(`The response from ${host} is larger than the limit of ${maxBytes} bytes`, {
        code: "response_too_large",
      });
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * fetch through the outbound guard: every hop (the first URL and each redirect, at most
 * `maxRedirects`) is vetted, and its connection is pinned to the vetted address, so a DNS answer
 * that changes between the check and the connection (rebinding) cannot redirect it.
 */
export function createGuardedFetch(config: OutboundConfig = {}): GuardedFetch {
  const allowList = typeof config.allowHosts === "object" ? config.allowHosts : parseAllowList(config.allowHosts);
  const guard: OutboundGuard = createOutboundGuard({ allowList, lookup: config.lookup });
  const maxRedirects = config.maxRedirects ?? 5;
  const userAgent = config.userAgent ?? "Trellis";

  return async function guardedFetch(outbound) {
    const timeoutMs = outbound.timeoutMs ?? config.defaultTimeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
    const maxBytes = outbound.maxResponseBytes ?? config.defaultMaxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = outbound.signal ? AbortSignal.any([outbound.signal, deadline]) : deadline;

    let url = outbound.url;
    let method = (outbound.method ?? "GET").toUpperCase();
    let body = outbound.body;
    let headers: Record<string, string> = { "user-agent": userAgent, ...outbound.headers };
    // Every caller's headers (API blocks, tools, Function code) pass here, so the rule holds for
    // requests whose config was never checked at save time.
    const reserved = Object.keys(headers).find(isReservedRequestHeader);
    if (reserved !== undefined)
      throw new OutboundRefusedError(`Outbound request refused: the ${reserved} header ${RESERVED_HEADER_MESSAGE}`);
    let currentHost = "";

    try {
      for (let redirects = 0; ; redirects++) {
        const target = await guard.vet(url);
        if (signal.aborted) throw signal.reason;
        currentHost = target.url.host;
        const agent = new Agent({
          connect: { lookup: pinnedLookup(target) },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        try {
          const response = await request(target.url, {
            dispatcher: agent,
            method: method as "GET",
            headers,
            body,
            signal,
          });
          const location = response.headers.location;
          if (REDIRECT_STATUSES.has(response.statusCode) && typeof location === "string") {
            discard(response.body);
            if (redirects >= maxRedirects)
              throw new OutboundRefusedError(
                `Outbound request to ${target.url.host} refused: more than ${maxRedirects} redirects`,
              );
            const next = new URL(location, target.url);
            if (next.origin !== target.url.origin) headers = withoutHeaders(headers, ORIGIN_BOUND_HEADERS);
            if (
              response.statusCode === 303
                ? method !== "HEAD"
                : (response.statusCode === 301 || response.statusCode === 302) && method === "POST"
            ) {
              method = "GET";
              body = undefined;
              headers = withoutHeaders(headers, ["content-type", "content-length"]);
            }
            url = next.href;
            continue;
          }
          const responseBody = await readCapped(response.body, maxBytes, target.url.host);
          return {
            url: target.url.href,
            status: response.statusCode,
            headers: flattenHeaders(response.headers),
            body: responseBody,
            redirects,
          };
        } finally {
          void agent.close().catch(() => undefined);
        }
      }
    } catch (error) {
      if (error instanceof TrellisError) throw error;
      if (outbound.signal?.aborted) {
        const reason: unknown = outbound.signal.reason;
        throw reason instanceof TrellisError ? reason : new CancelledError();
      }
      if (deadline.aborted)
        throw new TimeoutError(`The request to ${currentHost} did not finish within ${timeoutMs} ms`);
      const code = (error as NodeJS.ErrnoException)?.code;
      const detail = code ?? (error instanceof Error ? error.message : String(error));
      throw new BlockExecutionError(`The request to ${currentHost} failed (${detail})`, {
        code: "outbound_failed",
        retryable: true,
        cause: error,
      });
    }
  };
}
