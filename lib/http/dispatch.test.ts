import { describe, expect, it } from "vitest";
import type { Caller } from "@/lib/auth";
import { createDispatcher, type Identify } from "./dispatch";
import { bindOperation, type OperationDeclaration } from "./endpoint";

const person: Caller = { userId: "u1", email: "person@example.com", name: "Person", via: "session" };

/** Who calls, as a test decides it: a session when the request has `x-test-user`, and the workspace it names. */
function testIdentify() {
  const asked: string[] = [];
  const identify: Identify = {
    async caller(request) {
      asked.push("caller");
      return request.headers.has("x-test-user") ? person : null;
    },
    async workspace(_caller, request) {
      asked.push("workspace");
      return { id: request.headers.get("x-test-workspace") ?? "w1", role: "editor" };
    },
  };
  return { identify, asked };
}

const op = (
  declaration: Partial<OperationDeclaration> & Pick<OperationDeclaration, "operationId" | "method" | "path">,
): OperationDeclaration => ({
  access: "member",
  role: "viewer",
  ...declaration,
});

/** Each endpoint answers with its operation id, the params it got and whom it was called by. */
function table() {
  const echo = (declaration: OperationDeclaration) =>
    bindOperation(declaration, async (request, params, caller) =>
      Response.json({
        operation: declaration.operationId,
        params,
        caller: caller?.userId ?? null,
        method: request.method,
      }),
    );
  return [
    echo(op({ operationId: "listThings", method: "GET", path: "/api/things" })),
    echo(op({ operationId: "getThing", method: "GET", path: "/api/things/{id}" })),
    echo(op({ operationId: "changeThing", method: "PUT", path: "/api/things/{id}", role: "editor" })),
    echo(op({ operationId: "specialThing", method: "POST", path: "/api/things/special" })),
    echo(
      op({
        operationId: "priceOf",
        method: "GET",
        path: "/api/prices/{model}",
        parameters: [{ name: "model", in: "path", description: "", rest: true }],
      }),
    ),
    echo(op({ operationId: "health", method: "GET", path: "/api/health", access: "public", role: undefined })),
    echo(op({ operationId: "mine", method: "GET", path: "/api/mine", access: "signed-in", role: undefined })),
    echo(op({ operationId: "serve", method: "POST", path: "/api/serve", challenge: 'Bearer realm="test"' })),
    echo(
      op({
        operationId: "hook",
        method: "POST",
        path: "/api/hooks/{hookId}",
        access: "public",
        role: undefined,
        cors: "public",
        acceptsAnyBody: true,
        parameters: [
          { name: "hookId", in: "path", description: "" },
          { name: "X-Signature", in: "header", description: "" },
        ],
        answers: [{ status: 202, description: "", headers: { "Idempotent-Replayed": "on a replay" } }],
      }),
    ),
  ];
}

function dispatcher(options: { fallback?: boolean } = {}) {
  const { identify, asked } = testIdentify();
  const fallback = bindOperation({ operationId: "auth", path: "/api/auth/{path}", access: "public" }, async (request) =>
    Response.json({ fallback: new URL(request.url).pathname }),
  );
  const dispatch = createDispatcher(table(), {
    identify,
    ...(options.fallback ? { fallback: { prefix: "/api/auth/", endpoint: fallback } } : {}),
  });
  return { dispatch, asked };
}

const signedIn = { "x-test-user": "1" };
const send = (dispatch: (request: Request) => Promise<Response>, path: string, init: RequestInit = {}) =>
  dispatch(new Request(`http://localhost${path}`, init));

describe("the dispatcher", () => {
  it("finds the operation by method and path, with its params decoded, and hands it the member", async () => {
    const { dispatch } = dispatcher();
    expect(await (await send(dispatch, "/api/things/a%20b", { headers: signedIn })).json()).toEqual({
      operation: "getThing",
      params: { id: "a b" },
      caller: "u1",
      method: "GET",
    });
    const changed = await send(dispatch, "/api/things/7", {
      method: "PUT",
      headers: { ...signedIn, "content-type": "application/json" },
      body: "{}",
    });
    expect(await changed.json()).toMatchObject({ operation: "changeThing", params: { id: "7" } });
    expect(await (await send(dispatch, "/api/things", { headers: signedIn })).json()).toMatchObject({
      operation: "listThings",
      params: {},
    });
  });

  it("prefers a literal segment to a parameter, as Next.js's route files did, and answers 405 naming the methods there", async () => {
    const { dispatch } = dispatcher();
    const special = await send(dispatch, "/api/things/special", { method: "POST", headers: signedIn });
    expect(await special.json()).toMatchObject({ operation: "specialThing" });
    // /api/things/special has only POST: a GET there is not /api/things/{id}'s.
    const wrong = await send(dispatch, "/api/things/special", { headers: signedIn });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await wrong.json()).toMatchObject({ error: { code: "method_not_allowed" } });
    expect((await send(dispatch, "/api/things/7", { method: "DELETE", headers: signedIn })).headers.get("allow")).toBe(
      "GET, PUT, HEAD, OPTIONS",
    );
  });

  it("gives a rest parameter the rest of the path, slashes kept", async () => {
    const { dispatch } = dispatcher();
    expect(await (await send(dispatch, "/api/prices/ollama/llama3.2", { headers: signedIn })).json()).toMatchObject({
      params: { model: "ollama/llama3.2" },
    });
  });

  it("answers 404 in the contract's body for a path nothing declares, and hands /api/auth/ to its fallback", async () => {
    const { dispatch } = dispatcher({ fallback: true });
    const unknown = await send(dispatch, "/api/nothing/here");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { code: "not_found", message: "There is no API operation at GET /api/nothing/here." },
    });
    expect(await (await send(dispatch, "/api/auth/sign-in/email", { method: "POST" })).json()).toEqual({
      fallback: "/api/auth/sign-in/email",
    });
    expect((await send(dispatcher().dispatch, "/api/auth/sign-in/email")).status).toBe(404);
  });

  it("answers HEAD with GET's status and headers and no body", async () => {
    const { dispatch } = dispatcher();
    const head = await send(dispatch, "/api/health", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await head.text()).toBe("");
  });
});

describe("access", () => {
  it("answers 401 before the handler when an operation that is not public has no caller, and asks nobody for a public one", async () => {
    const { dispatch, asked } = dispatcher();
    const refused = await send(dispatch, "/api/things");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "unauthenticated" } });
    expect(await (await send(dispatch, "/api/mine", { headers: signedIn })).json()).toMatchObject({
      operation: "mine",
      caller: "u1",
    });
    expect(asked).toEqual(["caller", "caller"]);
    asked.length = 0;
    expect(await (await send(dispatch, "/api/health")).json()).toMatchObject({ operation: "health", caller: null });
    expect(asked).toEqual([]);
  });

  it("adds the operation's challenge to its 401 answers", async () => {
    const { dispatch } = dispatcher();
    const refused = await send(dispatch, "/api/serve", { method: "POST" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="test"');
  });

  it("runs the request guard before it asks who is calling: another site learns nothing, not even whether it is signed in", async () => {
    const { dispatch, asked } = dispatcher();
    const rebound = await send(dispatch, "/api/things", { headers: { ...signedIn, host: "evil.example" } });
    expect(rebound.status).toBe(421);
    const crossSite = await send(dispatch, "/api/things/7", {
      method: "PUT",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(crossSite.status).toBe(403);
    expect(asked).toEqual([]);
  });
});

/** A request whose Host header reads are counted: the guard reads it once each time it runs. */
function countingHostReads(request: Request) {
  let reads = 0;
  const headers = new Proxy(request.headers, {
    get(target, property) {
      if (property === "get") {
        return (name: string) => {
          if (name.toLowerCase() === "host") reads++;
          return target.get(name);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const counted = new Proxy(request, {
    get(target, property) {
      if (property === "headers") return headers;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { request: counted, reads: () => reads };
}

describe("the request guard", () => {
  it("runs once per request", async () => {
    const { dispatch } = dispatcher();
    for (const [path, init] of [
      ["/api/health", {}],
      ["/api/things/7", { method: "PUT", headers: { ...signedIn, "content-type": "application/json" }, body: "{}" }],
    ] as const) {
      const { request, reads } = countingHostReads(new Request(`http://localhost${path}`, init));
      expect((await dispatch(request)).status).toBe(200);
      expect([path, reads()]).toEqual([path, 1]);
    }
  });
});

describe("CORS", () => {
  it("answers a public operation's preflight from its declaration: its methods, its header parameters, and any origin", async () => {
    const { dispatch } = dispatcher();
    const preflight = await send(dispatch, "/api/hooks/h1", {
      method: "OPTIONS",
      headers: { origin: "https://customer.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries([...preflight.headers].filter(([name]) => name.startsWith("access-control-")))).toEqual({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": "content-type, x-signature",
      "access-control-max-age": "86400",
      "access-control-expose-headers": "idempotent-replayed",
    });
    const answer = await send(dispatch, "/api/hooks/h1", {
      method: "POST",
      headers: { origin: "https://customer.example", "content-type": "text/plain" },
      body: "a",
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-expose-headers")).toBe("idempotent-replayed");
  });

  it("answers any other preflight with the methods and no CORS header, so another site's page may send nothing", async () => {
    const { dispatch } = dispatcher();
    const preflight = await send(dispatch, "/api/things/7", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "PUT" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("allow")).toBe("GET, PUT, HEAD, OPTIONS");
    expect([...preflight.headers.keys()].filter((name) => name.startsWith("access-control-"))).toEqual([]);
  });
});

describe("the table", () => {
  it("refuses two endpoints for one method and path", () => {
    const one = bindOperation(op({ operationId: "a", method: "GET", path: "/api/a" }), async () => Response.json({}));
    const two = bindOperation(op({ operationId: "b", method: "GET", path: "/api/a" }), async () => Response.json({}));
    expect(() => createDispatcher([one, two], testIdentify())).toThrow("GET /api/a is bound twice (a, b)");
  });
});
