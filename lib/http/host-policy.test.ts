import { describe, expect, it } from "vitest";
import {
  createHostPolicy,
  hostPolicyFromEnvironment,
  parseAuthority,
  parseOrigin,
  type Authority,
} from "./host-policy";

const host = (text: string): Authority => {
  const authority = parseAuthority(text);
  if (!authority) throw new Error(`not a host: ${text}`);
  return authority;
};
const origin = (text: string): Authority => {
  const authority = parseOrigin(text);
  if (!authority) throw new Error(`not an origin: ${text}`);
  return authority;
};

describe("parseAuthority", () => {
  it("reads a host and port as a Host header writes them, normalised", () => {
    expect(parseAuthority("LocalHost:3000")).toEqual({ hostname: "localhost", port: "3000" });
    expect(parseAuthority("example.com.")).toEqual({ hostname: "example.com", port: null });
    expect(parseAuthority("example.com:80")).toEqual({ hostname: "example.com", port: null });
    expect(parseAuthority("[::1]:3000")).toEqual({ hostname: "[::1]", port: "3000" });
    expect(parseAuthority("127.1:3000")).toEqual({ hostname: "127.0.0.1", port: "3000" });
  });

  it("refuses what is not only a host and port", () => {
    for (const text of [
      "",
      "evil.example@localhost",
      "localhost/x",
      "localhost:abc",
      "local host",
      "localhost?x",
      "a\\b",
      "[::1%25eth0]",
    ]) {
      expect(parseAuthority(text), text).toBeNull();
    }
  });
});

describe("parseOrigin", () => {
  it("gives the effective port of http and https origins", () => {
    expect(parseOrigin("http://localhost:3000")).toEqual({ hostname: "localhost", port: "3000" });
    expect(parseOrigin("https://Trellis.Example.com")).toEqual({ hostname: "trellis.example.com", port: "443" });
    expect(parseOrigin("http://example.com")).toEqual({ hostname: "example.com", port: "80" });
  });

  it("refuses opaque and non-web origins", () => {
    for (const text of ["null", "file://", "chrome-extension://abcdef", "not a url"])
      expect(parseOrigin(text), text).toBeNull();
  });
});

describe("the host policy", () => {
  const none = createHostPolicy({});

  it("answers to loopback names and IP addresses on any port, and to nothing else by default", () => {
    for (const text of [
      "localhost",
      "localhost:3000",
      "127.0.0.1:8080",
      "[::1]:3000",
      "192.168.1.20:3000",
      "[fd00::1]",
    ]) {
      expect(none.answersTo(host(text)), text).toBe(true);
    }
    for (const text of [
      "evil.example",
      "evil.example:3000",
      "localhost.evil.example",
      "trellis.localhost:3000",
      "127.0.0.1.nip.io",
    ]) {
      expect(none.answersTo(host(text)), text).toBe(false);
    }
  });

  it("answers to TRELLIS_ALLOWED_HOSTS entries, on any port unless the entry names one", () => {
    const policy = createHostPolicy({ allowedHosts: " trellis.lan , box.internal:8443 ,[fd00::2]:3000" });
    expect(policy.answersTo(host("trellis.lan:3000"))).toBe(true);
    expect(policy.answersTo(host("TRELLIS.LAN"))).toBe(true);
    expect(policy.answersTo(host("box.internal:8443"))).toBe(true);
    expect(policy.answersTo(host("box.internal:3000"))).toBe(false);
    expect(policy.answersTo(host("sub.trellis.lan"))).toBe(false);
  });

  it("answers to the host of TRELLIS_PUBLIC_URL, with or without its default port written", () => {
    const policy = createHostPolicy({ publicUrl: "https://trellis.example.com/" });
    expect(policy.answersTo(host("trellis.example.com"))).toBe(true);
    expect(policy.answersTo(host("trellis.example.com:443"))).toBe(true);
    expect(policy.answersTo(host("trellis.example.com:3000"))).toBe(false);
    expect(policy.acceptsOrigin(origin("https://trellis.example.com"), host("127.0.0.1:3000"))).toBe(true);
    expect(policy.acceptsOrigin(origin("https://trellis.example.com:8443"), host("127.0.0.1:3000"))).toBe(false);
  });

  it("accepts changes from the request's own origin only, port included, unless configured", () => {
    expect(none.acceptsOrigin(origin("http://localhost:3000"), host("localhost:3000"))).toBe(true);
    expect(none.acceptsOrigin(origin("https://example.com"), host("example.com"))).toBe(true);
    // Another app on another loopback port or name is another origin.
    expect(none.acceptsOrigin(origin("http://localhost:5173"), host("localhost:3000"))).toBe(false);
    expect(none.acceptsOrigin(origin("http://127.0.0.1:3000"), host("localhost:3000"))).toBe(false);
    expect(none.acceptsOrigin(origin("https://evil.example"), host("localhost:3000"))).toBe(false);
    const proxied = createHostPolicy({ allowedHosts: "trellis.lan" });
    expect(proxied.acceptsOrigin(origin("http://trellis.lan:8080"), host("127.0.0.1:3000"))).toBe(true);
  });

  it("names a malformed variable instead of guessing", () => {
    expect(() => createHostPolicy({ allowedHosts: "https://trellis.lan" })).toThrow(
      /TRELLIS_ALLOWED_HOSTS entry "https:\/\/trellis.lan" is a URL/,
    );
    expect(() => createHostPolicy({ allowedHosts: "ok.lan, bad host" })).toThrow(/"bad host" is not a host\[:port\]/);
    expect(() => createHostPolicy({ publicUrl: "trellis.example.com" })).toThrow(
      /TRELLIS_PUBLIC_URL "trellis.example.com" is not an http or https URL/,
    );
  });

  it("is read from the environment and parsed again when it changes", () => {
    const first = hostPolicyFromEnvironment({ TRELLIS_ALLOWED_HOSTS: "a.lan" });
    expect(hostPolicyFromEnvironment({ TRELLIS_ALLOWED_HOSTS: "a.lan" })).toBe(first);
    const second = hostPolicyFromEnvironment({ TRELLIS_ALLOWED_HOSTS: "b.lan" });
    expect(second.answersTo(host("b.lan"))).toBe(true);
    expect(second.answersTo(host("a.lan"))).toBe(false);
  });
});
