import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockExecutionError, OutboundRefusedError, TimeoutError } from "@/core";
import { startLocalServer, type LocalServer } from "./__fixtures__/local-server";
import { createGuardedFetch } from "./guarded-fetch";
import type { HostLookup } from "./outbound-guard";

let target: LocalServer;
let other: LocalServer;

beforeAll(async () => {
  target = await startLocalServer((request, response) => {
    const url = new URL(request.url, "http://local");
    const redirect = url.searchParams.get("redirect");
    if (redirect) {
      response.writeHead(Number(url.searchParams.get("status") ?? 302), { location: redirect });
      return response.end();
    }
    if (url.pathname === "/loop") {
      response.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get("n") ?? 0) + 1}` });
      return response.end();
    }
    if (url.pathname === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      return response.end("x".repeat(2 * 1024 * 1024));
    }
    if (url.pathname === "/slow") {
      setTimeout(() => response.end("late"), 3000).unref();
      return;
    }
    response.writeHead(200, { "content-type": "application/json", "x-served-by": "target" });
    response.end(
      JSON.stringify({ method: request.method, path: request.url, host: request.headers.host, body: request.body }),
    );
  });
  other = await startLocalServer((_request, response) => response.end("other"));
});

afterAll(async () => {
  await target.close();
  await other.close();
});

/** Resolves names from a fixed table, so no test depends on real DNS. */
function tableLookup(table: Record<string, string[]>, calls: string[] = []): HostLookup {
  return async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

const noNetworkLookup = tableLookup({
  "internal.example": ["10.0.0.5"],
  "mixed.example": ["93.184.215.14", "192.168.1.20"],
  "metadata.example": ["169.254.169.254"],
});

describe("guarded fetch: refused targets", () => {
  const guarded = createGuardedFetch({ lookup: noNetworkLookup });

  it.each([
    ["loopback", () => `${target.origin}/`, "127.0.0.1 is a loopback address"],
    ["decimal", () => `http://2130706433:${target.port}/`, "127.0.0.1 is a loopback address"],
    ["hex", () => `http://0x7f000001:${target.port}/`, "127.0.0.1 is a loopback address"],
    ["octal", () => `http://0177.0.0.1:${target.port}/`, "127.0.0.1 is a loopback address"],
    ["short form", () => `http://127.1:${target.port}/`, "127.0.0.1 is a loopback address"],
    ["mixed hex", () => `http://0x7f.1:${target.port}/`, "127.0.0.1 is a loopback address"],
    ["IPv6 loopback", () => `http://[::1]:${target.port}/`, "::1 is a loopback address"],
    ["IPv4-mapped IPv6", () => `http://[::ffff:127.0.0.1]:${target.port}/`, "IPv4-mapped IPv6 address (of 127.0.0.1)"],
    ["unspecified", () => `http://0.0.0.0:${target.port}/`, "unspecified"],
    ["zero", () => `http://0:${target.port}/`, "unspecified"],
    ["IPv6 unspecified", () => `http://[::]:${target.port}/`, "unspecified"],
    ["private", () => "http://192.168.0.1/", "private network address"],
    ["octal private", () => "http://0300.0250.0.1/", "192.168.0.1 is a private network address"],
    ["CGNAT", () => "http://100.64.1.1/", "carrier-grade NAT"],
    ["metadata", () => "http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["unique-local IPv6", () => "http://[fd00::1]/", "unique-local"],
    ["link-local IPv6", () => "http://[fe80::1]/", "link-local"],
    ["multicast", () => "http://224.0.0.1/", "multicast"],
    [
      "name resolving to a private address",
      () => "http://internal.example/",
      "it resolves to 10.0.0.5, a private network address",
    ],
    ["name with one private address among public ones", () => "http://mixed.example/", "it resolves to 192.168.1.20"],
    ["name resolving to the metadata service", () => "http://metadata.example/", "cloud metadata"],
  ])("refuses %s with a clear error and sends nothing", async (_label, url, reason) => {
    const before = target.received.length;
    const error = await guarded({ url: url() }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toContain(reason);
    expect((error as Error).message).toContain("OUTBOUND_ALLOW_HOSTS");
    expect(target.received.length).toBe(before);
  });

  it("refuses localhost through the system resolver", async () => {
    const error = await createGuardedFetch()({ url: `http://localhost:${target.port}/` }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toMatch(
      /Outbound request to localhost:\d+ refused: it resolves to (127\.0\.0\.1|::1)/,
    );
  });

  it.each([
    "file:///etc/passwd",
    "ftp://example.com/",
    "gopher://example.com/",
    "data:text/plain,hi",
    "javascript:alert(1)",
  ])("allows only http and https: %s", async (url) => {
    const error = await guarded({ url }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toContain("only http and https");
  });

  it("never puts the path or query in its message", async () => {
    const error = await guarded({
      url: "http://10.0.0.1/admin?api_key=supersecret",
      headers: { authorization: "Bearer hunter2" },
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).not.toContain("supersecret");
    expect((error as Error).message).not.toContain("hunter2");
    expect((error as Error).message).not.toContain("admin");
  });

  it("says when a host cannot be resolved", async () => {
    const error = await guarded({ url: "http://nowhere.example/" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockExecutionError);
    expect((error as BlockExecutionError).code).toBe("outbound_unresolved");
  });
});

describe("guarded fetch: allowed targets", () => {
  it("reaches a loopback server that OUTBOUND_ALLOW_HOSTS opens, and only on that port", async () => {
    const guarded = createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` });
    const response = await guarded({
      url: `${target.origin}/hello?x=1`,
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "ping",
    });
    expect(response.status).toBe(200);
    expect(response.headers["x-served-by"]).toBe("target");
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: "POST", path: "/hello?x=1", body: "ping" });
    await expect(guarded({ url: `${other.origin}/` })).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it("opens a host name entry and CIDR ranges", async () => {
    expect(
      (await createGuardedFetch({ allowHosts: "localhost" })({ url: `http://localhost:${target.port}/` })).status,
    ).toBe(200);
    expect(
      (
        await createGuardedFetch({ allowHosts: "127.0.0.0/8" })({ url: `http://127.0.0.1:${other.port}/` })
      ).body.toString(),
    ).toBe("other");
  });

  it("pins the connection to the vetted address, so the name is resolved once per hop", async () => {
    const calls: string[] = [];
    let answers = 0;
    // A rebinding resolver: the first answer passes the check, later ones point elsewhere.
    const rebinding: HostLookup = async (hostname) => {
      calls.push(hostname);
      return [{ address: answers++ === 0 ? "127.0.0.1" : "10.9.9.9", family: 4 }];
    };
    const guarded = createGuardedFetch({ allowHosts: "127.0.0.0/8", lookup: rebinding });
    const response = await guarded({ url: `http://pinned.test:${target.port}/` });
    expect(response.status).toBe(200);
    // The request went to the vetted address with the original Host header; `.test` has no real DNS.
    expect(JSON.parse(response.body.toString()).host).toBe(`pinned.test:${target.port}`);
    expect(calls).toEqual(["pinned.test"]);
  });
});

describe("guarded fetch: reserved headers", () => {
  it.each([
    ["Host", "internal.example"],
    ["content-length", "0"],
    ["Transfer-Encoding", "chunked"],
    ["Connection", "upgrade"],
    ["Expect", "100-continue"],
  ])("refuses a request that sets %s and sends nothing", async (name, value) => {
    const before = target.received.length;
    const error = await createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` })({
      url: `${target.origin}/`,
      headers: { [name]: value },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toBe(
      `Outbound request refused: the ${name} header is set by Trellis from the request itself and cannot be overridden`,
    );
    expect(target.received.length).toBe(before);
  });
});

describe("guarded fetch: redirects", () => {
  const allowTarget = () => createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}`, lookup: noNetworkLookup });

  it("follows a redirect that stays allowed, turning POST into GET after 302", async () => {
    const response = await allowTarget()({
      url: `${target.origin}/start?redirect=/final`,
      method: "POST",
      body: "data",
    });
    expect(response.redirects).toBe(1);
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: "GET", path: "/final", body: "" });
  });

  it.each([
    ["a loopback port that is not allowed", () => `${other.origin}/`],
    ["a private address", () => "http://10.0.0.1/"],
    ["the metadata service", () => "http://169.254.169.254/latest/meta-data/"],
    ["a name resolving to a private address", () => "http://internal.example/"],
    ["a file URL", () => "file:///etc/passwd"],
  ])("refuses a redirect to %s", async (_label, location) => {
    const before = other.received.length;
    const error = await allowTarget()({ url: `${target.origin}/?redirect=${encodeURIComponent(location())}` }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect(other.received.length).toBe(before);
  });

  it("stops after 5 redirects", async () => {
    const error = await allowTarget()({ url: `${target.origin}/loop` }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toContain("more than 5 redirects");
  });

  it("drops the Authorization header when a redirect leaves the origin", async () => {
    const guarded = createGuardedFetch({ allowHosts: "127.0.0.0/8" });
    const before = other.received.length;
    await guarded({
      url: `${target.origin}/?redirect=${encodeURIComponent(`${other.origin}/landing`)}`,
      headers: { authorization: "Bearer hunter2" },
    });
    const landed = other.received[before];
    expect(landed?.url).toBe("/landing");
    expect(landed?.headers.authorization).toBeUndefined();
  });
});

describe("guarded fetch: limits", () => {
  const allowed = () => createGuardedFetch({ allowHosts: `127.0.0.1:${target.port}` });

  it("refuses a response larger than the cap", async () => {
    const error = await allowed()({ url: `${target.origin}/big`, maxResponseBytes: 1024 * 1024 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BlockExecutionError);
    expect((error as BlockExecutionError).code).toBe("response_too_large");
    expect((error as Error).message).toContain("1048576 bytes");
  });

  it("gives up at the time limit", async () => {
    const startedAt = Date.now();
    const error = await allowed()({ url: `${target.origin}/slow`, timeoutMs: 300 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain("300 ms");
    expect(Date.now() - startedAt).toBeLessThan(2500);
  });
});
