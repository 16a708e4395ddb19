import { afterEach, describe, expect, it, vi } from "vitest";
import { captureLogs } from "@/lib/observability/__fixtures__/captured-logs";
import { z } from "zod";
import { bindOperation, type OperationDeclaration } from "./endpoint";
import { testMember } from "./test-members";

/** The guard runs before who is calling matters: every call comes from an editor of one workspace. */
const editor = testMember("w1");

/** A member operation any member may call, as a test declares it; `changes` adds to or overrides the declaration. */
const thing = (changes: Partial<OperationDeclaration> = {}): OperationDeclaration => ({
  operationId: "things",
  path: "/api/things",
  access: "member",
  role: "viewer",
  ...changes,
});

/** An endpoint that records whether its handler ran. */
function recording(changes?: Partial<OperationDeclaration>) {
  const calls: string[] = [];
  const bound = bindOperation(thing(changes), async (request) => {
    calls.push(request.method);
    return Response.json({ ok: true });
  });
  return {
    calls,
    call: (init: RequestInit & { url?: string } = {}) =>
      bound(new Request(init.url ?? "http://localhost/api/things", init), {}, editor),
  };
}

async function refusal(response: Response) {
  return {
    status: response.status,
    ...((await response.json()) as { error: { code: string; message: string } }).error,
  };
}

const json = { "content-type": "application/json" };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the Host check", () => {
  it("refuses a foreign Host with 421 host_not_allowed before the handler runs, for every method", async () => {
    const { calls, call } = recording();
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      const response = await call({
        method,
        headers: { host: "evil.example:3000", ...json },
        ...(method === "GET" ? {} : { body: "{}" }),
      });
      expect(await refusal(response)).toMatchObject({
        status: 421,
        code: "host_not_allowed",
        message: expect.stringContaining('"evil.example:3000"'),
      });
    }
    expect(calls).toEqual([]);
  });

  it("reads the Host header, not the URL (Next.js builds the URL from its own address)", async () => {
    const { call } = recording();
    expect(
      (await call({ url: "http://127.0.0.1:3000/api/things", headers: { host: "rebound.evil.example:3000" } })).status,
    ).toBe(421);
    expect((await call({ url: "http://0.0.0.0:3000/api/things", headers: { host: "localhost:3000" } })).status).toBe(
      200,
    );
    // With no Host header (a Request made in-process), the URL's host stands in.
    expect((await call({ url: "http://test/api/things" })).status).toBe(421);
  });

  it("refuses a Host that is not a plain host and port", async () => {
    const { call } = recording();
    expect((await call({ headers: { host: "evil.example@localhost" } })).status).toBe(421);
  });

  it("serves the hosts of TRELLIS_ALLOWED_HOSTS and TRELLIS_PUBLIC_URL", async () => {
    const { call } = recording();
    expect((await call({ headers: { host: "trellis.lan:3000" } })).status).toBe(421);
    vi.stubEnv("TRELLIS_ALLOWED_HOSTS", "trellis.lan");
    vi.stubEnv("TRELLIS_PUBLIC_URL", "https://trellis.example.com");
    expect((await call({ headers: { host: "trellis.lan:3000" } })).status).toBe(200);
    expect((await call({ headers: { host: "trellis.example.com" } })).status).toBe(200);
  });

  it("answers 500 without detail when TRELLIS_ALLOWED_HOSTS is malformed, and runs nothing", async () => {
    const { calls, call } = recording();
    vi.stubEnv("TRELLIS_ALLOWED_HOSTS", "https://trellis.lan");
    const logs = captureLogs();
    try {
      expect(await refusal(await call())).toMatchObject({ status: 500, code: "internal_error" });
    } finally {
      logs.stop();
    }
    expect(logs.errors().join(" ")).toContain("TRELLIS_ALLOWED_HOSTS");
    expect(calls).toEqual([]);
  });
});

describe("the Origin check", () => {
  it("refuses a change whose Origin is another site with 403 cross_site_request", async () => {
    const { calls, call } = recording();
    for (const origin of ["https://evil.example", "http://localhost:5173", "null"]) {
      const response = await call({ method: "POST", headers: { origin, ...json }, body: "{}" });
      expect(await refusal(response)).toMatchObject({
        status: 403,
        code: "cross_site_request",
        message: expect.stringContaining(origin),
      });
    }
    expect(calls).toEqual([]);
  });

  it("refuses a change marked Sec-Fetch-Site cross-site or same-site when no Origin is sent", async () => {
    const { calls, call } = recording();
    for (const site of ["cross-site", "same-site"]) {
      expect((await call({ method: "DELETE", headers: { "sec-fetch-site": site } })).status).toBe(403);
    }
    expect((await call({ method: "DELETE", headers: { "sec-fetch-site": "same-origin" } })).status).toBe(200);
    expect(calls).toEqual(["DELETE"]);
  });

  it("lets same-origin changes through, and requests with no Origin (scripts, curl)", async () => {
    const { calls, call } = recording();
    expect(
      (
        await call({
          method: "POST",
          headers: { host: "localhost:3000", origin: "http://localhost:3000", ...json },
          body: "{}",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call({
          method: "POST",
          headers: { host: "127.0.0.1:3100", origin: "http://127.0.0.1:3100", ...json },
          body: "{}",
        })
      ).status,
    ).toBe(200);
    expect((await call({ method: "PUT", headers: json, body: "{}" })).status).toBe(200);
    expect(calls).toEqual(["POST", "POST", "PUT"]);
  });

  it("accepts the origin of TRELLIS_PUBLIC_URL behind a proxy that rewrites Host", async () => {
    const { call } = recording();
    const init = {
      method: "POST",
      headers: { host: "127.0.0.1:3000", origin: "https://trellis.example.com", ...json },
      body: "{}",
    };
    expect((await call(init)).status).toBe(403);
    vi.stubEnv("TRELLIS_PUBLIC_URL", "https://trellis.example.com");
    expect((await call(init)).status).toBe(200);
  });

  it("leaves reads alone: another site cannot read the answer without CORS headers, which are never sent", async () => {
    const { call } = recording();
    const response = await call({ headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } });
    expect(response.status).toBe(200);
    expect([...response.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });
});

describe("the media type check", () => {
  it("refuses the bodies another site can send without a preflight, naming what was sent and what is expected", async () => {
    const { calls, call } = recording();
    const bodies: Array<{ sent: string; body: BodyInit; headers?: Record<string, string> }> = [
      { sent: "text/plain", body: '{"name":"x"}' },
      { sent: "application/x-www-form-urlencoded", body: new URLSearchParams({ name: "x" }) },
      { sent: "multipart/form-data", body: new FormData() },
      { sent: "application/xml", body: "<x/>", headers: { "content-type": "application/xml" } },
    ];
    for (const { sent, body, headers } of bodies) {
      const refused = await refusal(await call({ method: "POST", body, ...(headers ? { headers } : {}) }));
      expect(refused).toMatchObject({ status: 415, code: "unsupported_media_type" });
      expect(refused.message).toBe(`The request body is ${sent}; send application/json.`);
    }
    expect(calls).toEqual([]);
  });

  it("refuses a body with no Content-Type, and lets a bodiless change through", async () => {
    const { calls, call } = recording();
    const untyped = await call({ method: "POST", headers: { "content-length": "7" }, body: new Blob(['{"a":1}']) });
    expect(await refusal(untyped)).toMatchObject({
      status: 415,
      message: "The request has a body but no Content-Type; send application/json.",
    });
    expect((await call({ method: "POST", headers: { "transfer-encoding": "chunked" } })).status).toBe(415);
    expect((await call({ method: "POST" })).status).toBe(200);
    expect((await call({ method: "POST", headers: { "content-length": "0" } })).status).toBe(200);
    expect(calls).toEqual(["POST", "POST"]);
  });

  it("accepts application/json with or without a UTF-8 charset, and refuses another charset", async () => {
    const { call } = recording();
    for (const type of ["application/json", "application/json; charset=utf-8", 'Application/JSON;charset="UTF-8"']) {
      expect((await call({ method: "POST", headers: { "content-type": type }, body: "{}" })).status, type).toBe(200);
    }
    const utf16 = await call({
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-16" },
      body: "{}",
    });
    expect(await refusal(utf16)).toMatchObject({
      status: 415,
      message: "The request body is application/json in utf-16; send it as UTF-8.",
    });
  });

  it("lets a multipart endpoint take multipart/form-data only", async () => {
    const { calls, call } = recording({
      request: { schema: z.object({}), contentType: "multipart/form-data", required: true },
    });
    const form = new FormData();
    form.append("file", new Blob(["a"]), "a.txt");
    expect((await call({ method: "POST", body: form })).status).toBe(200);
    const asJson = await refusal(await call({ method: "POST", headers: json, body: "{}" }));
    expect(asJson).toMatchObject({
      status: 415,
      message: "The request body is application/json; send multipart/form-data.",
    });
    expect(calls).toEqual(["POST"]);
  });

  it("leaves the media type to a public operation that accepts any body (a hook), and allows that nowhere else", async () => {
    const calls: string[] = [];
    const hook = bindOperation(
      thing({ path: "/api/hooks/{hookId}", access: "public", role: undefined, cors: "public", acceptsAnyBody: true }),
      async (request) => {
        calls.push(request.headers.get("content-type") ?? "");
        return Response.json({ ok: true });
      },
    );
    const post = (type: string) =>
      hook(
        new Request("http://localhost/api/hooks/h", { method: "POST", headers: { "content-type": type }, body: "a=1" }),
        {},
      );
    expect((await post("application/x-www-form-urlencoded")).status).toBe(200);
    expect((await post("text/plain")).status).toBe(200);
    expect(calls).toEqual(["application/x-www-form-urlencoded", "text/plain"]);
    // Still only at this server's names.
    expect(
      (
        await hook(
          new Request("http://localhost/api/hooks/h", { method: "POST", headers: { host: "evil.example" } }),
          {},
        )
      ).status,
    ).toBe(421);
    // A cookie-authorised endpoint taking any body would take a form another site's page posts.
    expect(() => bindOperation(thing({ cors: "public", acceptsAnyBody: true }), async () => Response.json({}))).toThrow(
      "only for a public operation",
    );
    expect(() =>
      bindOperation(thing({ access: "public", role: undefined, acceptsAnyBody: true }), async () => Response.json({})),
    ).toThrow('only for an operation with cors "public"');
  });
});

describe("CORS", () => {
  it("strips CORS headers from a same-origin endpoint's answers", async () => {
    const leaky = bindOperation(thing(), async () =>
      Response.json(
        {},
        { headers: { "access-control-allow-origin": "*", "access-control-allow-credentials": "true", "x-kept": "1" } },
      ),
    );
    const response = await leaky(new Request("http://localhost/api/things"), {}, editor);
    expect([...response.headers.keys()].sort()).toEqual(["content-type", "x-kept"]);
  });

  it('lets a public operation opt in with cors: "public": any origin may call it and read the answer, without credentials', async () => {
    const { calls, call } = recording({ access: "public", role: undefined, cors: "public" });
    const response = await call({
      method: "POST",
      headers: { origin: "https://customer.example", ...json },
      body: "{}",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    // Still only at this server's names, and still JSON only.
    expect((await call({ headers: { host: "evil.example" } })).status).toBe(421);
    expect((await call({ method: "POST", body: "{}" })).status).toBe(415);
    expect(calls).toEqual(["POST"]);
    // And a member operation cannot: a cookie would authorise another site's page.
    expect(() => bindOperation(thing({ cors: "public" }), async () => Response.json({}))).toThrow(
      "only for a public operation",
    );
  });
});
