import { describe, expect, it } from "vitest";
import { refusalReasonForAddress } from "./address-policy";
import { AllowListError, parseAllowList } from "./allow-list";

describe("refusalReasonForAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private network"],
    ["172.16.0.1", "private network"],
    ["192.168.1.1", "private network"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["169.254.169.254", "cloud metadata"],
    ["169.254.1.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["::ffff:127.0.0.1", "IPv4-mapped IPv6 address (of 127.0.0.1)"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["::7f00:1", "non-global IPv6"],
    ["64:ff9b::a00:1", "NAT64"],
    ["2002:7f00:1::", "6to4"],
    ["ff02::1", "multicast"],
  ])("refuses %s", (address, reason) => {
    expect(refusalReasonForAddress(address)).toContain(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "93.184.215.14", "2606:4700:4700::1111"])(
    "accepts the public address %s",
    (address) => {
      expect(refusalReasonForAddress(address)).toBeNull();
    },
  );
});

describe("parseAllowList", () => {
  const list = parseAllowList(" 127.0.0.1:8080, internal.example, db.local:5432, 10.0.0.0/8, [::1]:9000, fd00::/8 ,");

  it("keeps the entries as written", () => {
    expect(list.entries).toEqual([
      "127.0.0.1:8080",
      "internal.example",
      "db.local:5432",
      "10.0.0.0/8",
      "[::1]:9000",
      "fd00::/8",
    ]);
  });

  it("matches host names, with or without a port", () => {
    expect(list.allowsHost("INTERNAL.example", 443)).toBe(true);
    expect(list.allowsHost("db.local", 5432)).toBe(true);
    expect(list.allowsHost("db.local", 80)).toBe(false);
    expect(list.allowsHost("other.example", 80)).toBe(false);
  });

  it("matches addresses, ports and ranges, IPv4-mapped forms included", () => {
    expect(list.allowsAddress("127.0.0.1", 8080)).toBe(true);
    expect(list.allowsAddress("::ffff:127.0.0.1", 8080)).toBe(true);
    expect(list.allowsAddress("127.0.0.1", 8081)).toBe(false);
    expect(list.allowsAddress("10.20.30.40", 1)).toBe(true);
    expect(list.allowsAddress("11.0.0.1", 80)).toBe(false);
    expect(list.allowsAddress("::1", 9000)).toBe(true);
    expect(list.allowsAddress("::1", 9001)).toBe(false);
    expect(list.allowsAddress("fd00::5", 80)).toBe(true);
  });

  it("is empty when the variable is unset", () => {
    expect(parseAllowList(undefined).allowsAddress("127.0.0.1", 80)).toBe(false);
  });

  it.each(["10.0.0.0/33", "host:port", "host:70000", "a:b:c:d", "bad host"])("names a malformed entry: %s", (entry) => {
    expect(() => parseAllowList(entry)).toThrow(AllowListError);
    expect(() => parseAllowList(entry)).toThrow(`"${entry}"`);
  });
});
