import { lookup as dnsLookup } from "node:dns/promises";
import { BlockExecutionError, OutboundRefusedError } from "@/core";
import { isIpAddress, normalizeAddress, refusalReasonForAddress } from "./address-policy";
import type { AllowList } from "./allow-list";

/** Resolves a host name to every address it has (dns.lookup with `all: true` by default). */
export type HostLookup = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A URL the guard accepted, with the address the connection must use. */
export interface VettedTarget {
  url: URL;
  /** Host name without IPv6 brackets, lower case. */
  hostname: string;
  port: number;
  /** The checked address; the connection is pinned to it so DNS cannot change it afterwards. */
  address: string;
  family: 4 | 6;
}

export interface OutboundGuardOptions {
  allowList: AllowList;
  lookup?: HostLookup;
  lookupTimeoutMs?: number;
}

export interface OutboundGuard {
  /** Checks a URL and resolves its host; throws OutboundRefusedError with the reason. */
  vet(url: string | URL): Promise<VettedTarget>;
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The SSRF guard. A URL passes when it is http or https and every address its host resolves to
 * is public, or allowed by OUTBOUND_ALLOW_HOSTS. Numeric tricks (`http://2130706433`,
 * `0x7f000001`, `0177.0.0.1`, `127.1`) are normalised by WHATWG URL parsing to dotted IPv4 first,
 * and names are judged by what they resolve to, so no spelling of an address gets past.
 * Messages name the host and the reason, never the path or query (which may hold secrets).
 */
export function createOutboundGuard(options: OutboundGuardOptions): OutboundGuard {
  const lookup = options.lookup ?? systemLookup;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? 5_000;
  const { allowList } = options;

  return {
    async vet(input) {
      let url: URL;
      try {
        url = typeof input === "string" ? new URL(input) : new URL(input.href);
      } catch {
        throw new OutboundRefusedError("Outbound request refused: the URL is not a valid absolute URL");
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new OutboundRefusedError(
          `Outbound request refused: only http and https URLs are allowed, not ${url.protocol.replace(/:$/, "")}`,
        );
      }
      const hostname = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
      const port = defaultPort(url);
      if (!hostname) throw new OutboundRefusedError("Outbound request refused: the URL has no host");
      const refuse = (reason: string) =>
        new OutboundRefusedError(
          `Outbound request to ${url.host} refused: ${reason}. Add the host to OUTBOUND_ALLOW_HOSTS to allow it on purpose.`,
        );

      let addresses: ReadonlyArray<{ address: string; family: number }>;
      if (isIpAddress(hostname)) {
        addresses = [{ address: normalizeAddress(hostname), family: hostname.includes(":") ? 6 : 4 }];
      } else {
        try {
          addresses = await withTimeout(lookup(hostname), lookupTimeoutMs, () => new Error("timed out"));
        } catch (error) {
          const reason =
            error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
          throw new BlockExecutionError(`Could not resolve the host ${url.hostname} (${reason})`, {
            code: "outbound_unresolved",
            retryable: true,
          });
        }
        if (addresses.length === 0)
          throw new BlockExecutionError(`Could not resolve the host ${url.hostname}`, {
            code: "outbound_unresolved",
            retryable: true,
          });
      }

      const hostAllowed = allowList.allowsHost(hostname, port);
      // Every address must pass: a name that resolves to one public and one private address could
      // otherwise be steered to the private one.
      for (const { address } of addresses) {
        if (hostAllowed || allowList.allowsAddress(address, port)) continue;
        const reason = refusalReasonForAddress(address);
        if (reason)
          throw refuse(address === hostname ? `${address} is ${reason}` : `it resolves to ${address}, ${reason}`);
      }
      const chosen = addresses[0]!;
      return { url, hostname, port, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
    },
  };
}
