import { describe, expect, it } from "vitest";
import { addressLimitKey, clientAddressOf, parseTrustedProxies } from "./client-address";
import { peerAddressHeader } from "./peer-address";

const from = (peer: string | null, forwardedFor?: string) =>
  new Request("http://trellis.test/api/auth/sign-in/email", {
    headers: {
      ...(peer ? { [peerAddressHeader()]: peer } : {}),
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
  });

describe("TRELLIS_TRUSTED_PROXIES", () => {
  it("takes addresses and CIDR ranges, and refuses a malformed entry by name", () => {
    const proxies = parseTrustedProxies(" 10.0.0.0/8, 192.0.2.1 ,fd00::/8,, ::1");
    expect(proxies.entries).toEqual(["10.0.0.0/8", "192.0.2.1", "fd00::/8", "::1"]);
    expect(proxies.trusts("10.20.30.40")).toBe(true);
    expect(proxies.trusts("::ffff:10.1.1.1")).toBe(true);
    expect(proxies.trusts("192.0.2.2")).toBe(false);
    expect(proxies.trusts("fd12::1")).toBe(true);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(
      'TRELLIS_TRUSTED_PROXIES entry "10.0.0.0/33" is not a valid CIDR range.',
    );
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(
      'TRELLIS_TRUSTED_PROXIES entry "proxy.internal" is not an IP address or CIDR range.',
    );
  });
});

describe("the client address", () => {
  it("is the socket's peer without trusted proxies, whatever X-Forwarded-For says", () => {
    const none = parseTrustedProxies(undefined);
    expect(clientAddressOf(from("127.0.0.1", "203.0.113.9"), none)).toBe("127.0.0.1");
    expect(clientAddressOf(from("::ffff:198.51.100.4"), none)).toBe("198.51.100.4");
    // A request that no stamping server received has no peer: it is nobody's address.
    expect(clientAddressOf(from(null, "203.0.113.9"), none)).toBeNull();
  });

  it("is the right-most untrusted hop with trusted proxies", () => {
    const trusted = parseTrustedProxies("127.0.0.1, 10.0.0.0/8");
    expect(clientAddressOf(from("127.0.0.1", "192.0.2.66, 203.0.113.9, 10.0.0.5"), trusted)).toBe("203.0.113.9");
    // A peer that is no proxy of the operator's is the client, whatever it forwards.
    expect(clientAddressOf(from("198.51.100.7", "203.0.113.9"), trusted)).toBe("198.51.100.7");
    // The proxy sent no header: the proxy itself is all there is to count.
    expect(clientAddressOf(from("127.0.0.1"), trusted)).toBe("127.0.0.1");
    expect(clientAddressOf(from("127.0.0.1", "not-an-address"), trusted)).toBeNull();
  });

  it("is counted by its /64 for IPv6, whole for IPv4, and as `unknown` when there is none", () => {
    expect(addressLimitKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressLimitKey("2001:db8:1:2:bbbb::9")).toBe("2001:db8:1:2::/64");
    expect(addressLimitKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressLimitKey(null)).toBe("unknown");
  });
});
