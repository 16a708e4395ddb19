import { Agent, buildConnector, fetch as undiciFetch } from "undici";
import { TrellisError } from "@/core";
import { parseAllowList, type AllowList } from "./allow-list";
import { createOutboundGuard, type HostLookup } from "./outbound-guard";

export interface GuardedWebFetchConfig {
  /** OUTBOUND_ALLOW_HOSTS text, or an already parsed list. */
  allowHosts?: string | AllowList;
  /**
   * Endpoints the operator configured for this client (model providers' base URLs): their host and
   * port are allowed although private or loopback, for this fetch only.
   */
  trustedEndpoints?: ReadonlyArray<string | URL>;
  /** Injected in tests; dns.lookup by default. */
  lookup?: HostLookup;
}

/** `host:port` as an allow-list entry, brackets kept for IPv6, the scheme's default port made explicit. */
function endpointEntry(endpoint: string | URL): string {
  const url = new URL(endpoint);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}

/** OUTBOUND_ALLOW_HOSTS and the trusted endpoints, as one list the guard reads. */
function combinedAllowList(config: GuardedWebFetchConfig): AllowList {
  const base = typeof config.allowHosts === "object" ? config.allowHosts : parseAllowList(config.allowHosts);
  const endpoints = parseAllowList((config.trustedEndpoints ?? []).map(endpointEntry).join(","));
  return {
    entries: [...base.entries, ...endpoints.entries],
    allowsHost: (hostname, port) => base.allowsHost(hostname, port) || endpoints.allowsHost(hostname, port),
    allowsAddress: (address, port) => base.allowsAddress(address, port) || endpoints.allowsAddress(address, port),
  };
}

/** The guard's own error, when undici wrapped it as the cause of "fetch failed". */
function guardError(error: unknown): TrellisError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof TrellisError) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * A WHATWG `fetch` (streaming bodies, as the AI SDK's provider clients need) whose every connection
 * passes the outbound guard: the host is vetted when a socket is opened (the first URL, and any
 * redirect to another origin) and the socket is connected to the vetted address, so a DNS answer
 * that changes afterwards cannot move it. The guard's refusal is thrown as itself, not as
 * "fetch failed", so the caller's error names the host and the reason.
 */
export function createGuardedWebFetch(config: GuardedWebFetchConfig = {}): typeof globalThis.fetch {
  const guard = createOutboundGuard({ allowList: combinedAllowList(config), lookup: config.lookup });
  const connect = buildConnector({});
  const dispatcher = new Agent({
    connect: (options, callback) => {
      guard.vet(`${options.protocol}//${options.host}/`).then(
        (target) => connect({ ...options, hostname: target.address }, callback),
        (error: unknown) => callback(error as Error, null),
      );
    },
  });
  const guardedFetch = async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit): Promise<Response> => {
    try {
      // undici's own Request/Response types are structurally the platform's; the casts bridge the two declarations.
      return (await undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as object),
        dispatcher,
      })) as unknown as Response;
    } catch (error) {
      throw guardError(error) ?? error;
    }
  };
  return guardedFetch as typeof globalThis.fetch;
}
