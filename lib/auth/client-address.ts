import "server-only";
import ipaddr from "ipaddr.js";
import { TrellisError } from "@/executor";
import { peerAddressOf } from "./peer-address";

/**
 * The address a request came from, for the limits on password guesses. It is the TCP peer (the
 * socket's address), unless the operator says in TRELLIS_TRUSTED_PROXIES which peers are their
 * own proxies: then X-Forwarded-For is read from the right, past every trusted hop, and the first
 * untrusted one is the client (the hops left of it are the client's own claims, and anyone can
 * write those). Without the setting X-Forwarded-For is ignored: a client could name any address
 * in it and so escape its own limit.
 */

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface TrustedProxies {
  /** The entries as written, for messages. */
  readonly entries: readonly string[];
  trusts(address: string): boolean;
}

/** Unwraps IPv4-mapped IPv6 (`::ffff:10.0.0.1`), as sockets report IPv4 peers on a dual-stack listener. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(bare)) return null;
  const address = ipaddr.parse(bare);
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** TRELLIS_TRUSTED_PROXIES: comma-separated addresses or CIDR ranges. A malformed entry is refused by name. */
export function parseTrustedProxies(text: string | undefined): TrustedProxies {
  const entries = (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const ranges: Range[] = entries.map((entry) => {
    if (entry.includes("/")) {
      if (!ipaddr.isValidCIDR(entry))
        throw new TrellisError(
          "invalid_configuration",
          `TRELLIS_TRUSTED_PROXIES entry "${entry}" is not a valid CIDR range.`,
        );
      const [address, bits] = ipaddr.parseCIDR(entry);
      return [address, bits];
    }
    const address = parseAddress(entry);
    if (!address)
      throw new TrellisError(
        "invalid_configuration",
        `TRELLIS_TRUSTED_PROXIES entry "${entry}" is not an IP address or CIDR range.`,
      );
    return [address, address.kind() === "ipv4" ? 32 : 128];
  });
  return {
    entries,
    trusts(text) {
      const address = parseAddress(text);
      return (
        address !== null &&
        ranges.some(([network, bits]) => network.kind() === address.kind() && address.match([network, bits] as never))
      );
    },
  };
}

/**
 * The name an address is counted under: IPv4 whole, IPv6 by its /64 (what one host is usually
 * given, and can pick any address in); `unknown` for no address, which all such requests share.
 */
export function addressLimitKey(text: string | null): string {
  const address = text === null ? null : parseAddress(text);
  if (!address) return "unknown";
  if (address.kind() === "ipv4") return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}

/**
 * The client's address: the socket's peer, or with trusted proxies the right-most untrusted hop
 * of `X-Forwarded-For, <peer>`. Null when the peer is not known (a request that did not come
 * through a stamped HTTP server) or the hop found is not an address.
 */
export function clientAddressOf(request: Request, trusted: TrustedProxies): string | null {
  const peer = peerAddressOf(request);
  if (peer === null) return null;
  const forwarded = trusted.entries.length === 0 ? [] : (request.headers.get("x-forwarded-for") ?? "").split(",");
  const hops = [...forwarded.map((hop) => hop.trim()).filter(Boolean), peer];
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index]!;
    const address = parseAddress(hop);
    if (!address) return null;
    if (index > 0 && trusted.trusts(hop)) continue;
    return address.toString();
  }
  return null;
}

let fromEnvironment: { text: string | undefined; proxies: TrustedProxies } | undefined;

/** TRELLIS_TRUSTED_PROXIES, parsed once per value. */
export function trustedProxiesFromEnvironment(): TrustedProxies {
  const text = process.env.TRELLIS_TRUSTED_PROXIES;
  if (!fromEnvironment || fromEnvironment.text !== text) fromEnvironment = { text, proxies: parseTrustedProxies(text) };
  return fromEnvironment.proxies;
}
