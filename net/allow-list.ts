import ipaddr from "ipaddr.js";
import { TrellisError } from "@/core";

/**
 * OUTBOUND_ALLOW_HOSTS (docs/CONTRACT.md section 4): comma-separated `host[:port]` or CIDR entries
 * that may be reached although they are private or loopback. A host name entry allows that name
 * whatever it resolves to; an IP entry allows that address (also when a name resolves to it); a
 * CIDR entry allows every address in the range, on any port.
 */

type Entry =
  | { kind: "name"; host: string; port?: number }
  | { kind: "address"; address: string; port?: number }
  | { kind: "range"; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

export interface AllowList {
  /** The entries as written, for messages. */
  readonly entries: ReadonlyArray<string>;
  allowsHost(hostname: string, port: number): boolean;
  allowsAddress(address: string, port: number): boolean;
}

/** OUTBOUND_ALLOW_HOSTS is malformed; raised when the runtime is composed, not per request. */
export class AllowListError extends TrellisError {
  constructor(message: string) {
    super("invalid_configuration", message);
  }
}

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
    throw new AllowListError(`OUTBOUND_ALLOW_HOSTS entry "${entry}" has an invalid port`);
  return port;
}

/** Unwraps IPv4-mapped IPv6 so `::ffff:127.0.0.1` and `127.0.0.1` compare equal. */
function canonicalAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return (address as ipaddr.IPv6).toIPv4Address();
  return address;
}

function parseEntry(entry: string): Entry {
  if (entry.includes("/")) {
    if (!ipaddr.isValidCIDR(entry))
      throw new AllowListError(`OUTBOUND_ALLOW_HOSTS entry "${entry}" is not a valid CIDR range`);
    return { kind: "range", range: ipaddr.parseCIDR(entry) };
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    if (!ipaddr.IPv6.isValid(bracketed[1]!))
      throw new AllowListError(`OUTBOUND_ALLOW_HOSTS entry "${entry}" is not a valid IPv6 address`);
    return {
      kind: "address",
      address: canonicalAddress(bracketed[1]!).toString(),
      port: bracketed[2] ? parsePort(bracketed[2], entry) : undefined,
    };
  }
  if (ipaddr.IPv6.isValid(entry)) return { kind: "address", address: canonicalAddress(entry).toString() };
  const [host = "", portText, extra] = entry.split(":");
  if (extra !== undefined || !/^[A-Za-z0-9.-]+$/.test(host))
    throw new AllowListError(`OUTBOUND_ALLOW_HOSTS entry "${entry}" is not a host[:port] or CIDR range`);
  const port = portText === undefined ? undefined : parsePort(portText, entry);
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return { kind: "address", address: host, port };
  return { kind: "name", host: host.toLowerCase().replace(/\.$/, ""), port };
}

export function parseAllowList(text: string | undefined): AllowList {
  const written = (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const entries = written.map(parseEntry);
  const portMatches = (entry: { port?: number }, port: number) => entry.port === undefined || entry.port === port;
  return {
    entries: written,
    allowsHost(hostname, port) {
      const host = hostname
        .toLowerCase()
        .replace(/^\[|\]$/g, "")
        .replace(/\.$/, "");
      return entries.some((entry) => entry.kind === "name" && entry.host === host && portMatches(entry, port));
    },
    allowsAddress(text, port) {
      let address: ipaddr.IPv4 | ipaddr.IPv6;
      try {
        address = canonicalAddress(text);
      } catch {
        return false;
      }
      const normalized = address.toString();
      return entries.some((entry) => {
        if (entry.kind === "address") return entry.address === normalized && portMatches(entry, port);
        if (entry.kind === "range") return entry.range[0].kind() === address.kind() && address.match(entry.range);
        return false;
      });
    },
  };
}
