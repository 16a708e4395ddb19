import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboundRefusedError } from "@/core";
import { startLocalServer, type LocalServer } from "./__fixtures__/local-server";
import { createGuardedWebFetch } from "./guarded-web-fetch";
import type { HostLookup } from "./outbound-guard";

let target: LocalServer;
let other: LocalServer;

beforeAll(async () => {
  target = await startLocalServer((request, response) => {
    const url = new URL(request.url, "http://local");
    const redirect = url.searchParams.get("redirect");
    if (redirect) {
      response.writeHead(307, { location: redirect });
      return response.end();
    }
    if (url.pathname === "/stream") {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      setTimeout(() => response.end("data: two\n\n"), 50);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
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

describe("guarded web fetch", () => {
  it("refuses a loopback target nobody allowed, as the guard's own error, and sends nothing", async () => {
    const before = target.received.length;
    const error = await createGuardedWebFetch()(`${target.origin}/v1/chat/completions`, {
      method: "POST",
      body: "{}",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect((error as Error).message).toContain(`127.0.0.1:${target.port} refused: 127.0.0.1 is a loopback address`);
    expect(target.received.length).toBe(before);
  });

  it.each([
    ["metadata", "http://169.254.169.254/latest/meta-data/", "cloud metadata"],
    ["decimal loopback", "http://2130706433/", "loopback"],
    ["IPv4-mapped IPv6", "http://[::ffff:127.0.0.1]/", "IPv4-mapped"],
    ["private", "http://10.0.0.1/", "private network"],
  ])("refuses %s", async (_name, url, reason) => {
    await expect(createGuardedWebFetch()(url)).rejects.toThrow(reason);
  });

  it("reaches a trusted endpoint's host and port, streaming, and nothing else on loopback", async () => {
    const fetch = createGuardedWebFetch({ trustedEndpoints: [`${target.origin}/v1`] });
    const response = await fetch(`${target.origin}/stream`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
    const posted = await fetch(`${target.origin}/v1/chat/completions`, { method: "POST", body: "ping" });
    expect(await posted.json()).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: "ping" });
    await expect(fetch(`${other.origin}/`)).rejects.toBeInstanceOf(OutboundRefusedError);
  });

  it("reaches what OUTBOUND_ALLOW_HOSTS opens", async () => {
    const response = await createGuardedWebFetch({ allowHosts: `127.0.0.1:${other.port}` })(`${other.origin}/`);
    expect(await response.text()).toBe("other");
  });

  it("vets a redirect to another origin before connecting to it", async () => {
    const before = other.received.length;
    const fetch = createGuardedWebFetch({ trustedEndpoints: [target.origin] });
    const error = await fetch(`${target.origin}/?redirect=${encodeURIComponent(`${other.origin}/landing`)}`, {
      method: "POST",
      body: "x",
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRefusedError);
    expect(other.received.length).toBe(before);
  });

  it("connects to the vetted address, so a rebinding name cannot move the connection", async () => {
    let answers = 0;
    const rebinding: HostLookup = async () => [{ address: answers++ === 0 ? "127.0.0.1" : "10.9.9.9", family: 4 }];
    const fetch = createGuardedWebFetch({ allowHosts: "127.0.0.0/8", lookup: rebinding });
    const body = (await (await fetch(`http://pinned.test:${target.port}/`)).json()) as { host: string };
    expect(body.host).toBe(`pinned.test:${target.port}`);
  });
});
