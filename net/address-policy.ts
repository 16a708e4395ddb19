import ipaddr from "ipaddr.js";

/**
 * Which IP addresses the outbound guard refuses by default: everything that is not a public
 * unicast address. Returns a reason a user can read, or null when the address is public.
 */

const REASONS: Readonly<Record<string, string>> = {
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address (100.64.0.0/10)",
  private: "a private network address (RFC 1918)",
  reserved: "a reserved address",
  uniqueLocal: "a unique-local IPv6 address (fc00::/7)",
  ipv4Mapped: "an IPv4-mapped IPv6 address",
  rfc6145: "an IPv4-translated IPv6 address",
  rfc6052: "a NAT64 IPv6 address",
  "6to4": "a 6to4 IPv6 address",
  teredo: "a Teredo IPv6 address",
  deprecatedSiteLocal: "a site-local IPv6 address",
};

const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "100.100.100.200"]);
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

export function isIpAddress(text: string): boolean {
  return ipaddr.isValid(text);
}

/** Normalises an IP address text (IPv6 compressed, lower case). */
export function normalizeAddress(text: string): string {
  return ipaddr.parse(text).toString();
}

export function refusalReasonForAddress(text: string): string | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(text);
  } catch {
    return "not an IP address";
  }
  const normalized = address.toString();
  if (METADATA_ADDRESSES.has(normalized)) return "a cloud metadata service address";
  const range = address.range();
  if (address.kind() === "ipv6" && range === "ipv4Mapped") {
    const embedded = (address as ipaddr.IPv6).toIPv4Address().toString();
    return `an IPv4-mapped IPv6 address (of ${embedded})`;
  }
  if (range !== "unicast") return REASONS[range] ?? `a non-public address (${range})`;
  // IPv6 outside 2000::/3 (for example the deprecated IPv4-compatible ::7f00:1) is not routable
  // on the internet; refuse it rather than guess what the local stack does with it.
  if (address.kind() === "ipv6" && !address.match(IPV6_GLOBAL_UNICAST)) return "a non-global IPv6 address";
  return null;
}
