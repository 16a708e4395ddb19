import { readdirSync } from "node:fs";
import path from "node:path";
import { autoImplementMethods } from "next/dist/server/route-modules/app-route/helpers/auto-implement-methods";
import { describe, expect, it } from "vitest";
import { endpoint, publicEndpoint, userEndpoint } from "./endpoint";
import { route } from "./route";
import { RequestError } from "./errors";
import { testMember } from "./test-members";

describe("endpoint and route", () => {
  it("answers a thrown error with the contract's error body", async () => {
    const refuse = endpoint(async () => {
      throw new RequestError("invalid_request", "The thing is invalid.", [{ path: "name", message: "is required" }]);
    });
    const response = await refuse(new Request("http://localhost/thing"), {}, testMember("w1"));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "invalid_request", message: "The thing is invalid.", details: [{ path: "name", message: "is required" }] },
    });
  });

  it("binds an endpoint as a route handler, passing the awaited params", async () => {
    const echo = publicEndpoint<{ id: string }>(async (request, { id }) => Response.json({ id, method: request.method }));
    const response = await route(echo)(new Request("http://localhost/things/7", { method: "PUT" }), { params: Promise.resolve({ id: "7" }) });
    expect(await response.json()).toEqual({ id: "7", method: "PUT" });
  });
});

describe("roles", () => {
  const seen: string[] = [];
  const recorder = (options = {}) =>
    endpoint(async (request, _params, member) => {
      seen.push(`${request.method} ${member.workspace.role}`);
      return Response.json({ workspace: member.workspace.id });
    }, options);
  const call = (handler: ReturnType<typeof recorder>, method: string, role: Parameters<typeof testMember>[1]) =>
    handler(new Request("http://localhost/thing", { method }), {}, testMember("w1", role));

  it("lets viewers read and editors change by default, before the handler runs", async () => {
    const thing = recorder();
    seen.length = 0;
    expect((await call(thing, "GET", "viewer")).status).toBe(200);
    const refused = await call(thing, "POST", "viewer");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: "forbidden", message: "Your role in this workspace (viewer) cannot do this: it needs editor or above." },
    });
    expect((await call(thing, "DELETE", "editor")).status).toBe(200);
    expect(seen).toEqual(["GET viewer", "DELETE editor"]);
  });

  it("honours an endpoint's own role, stronger or weaker", async () => {
    const adminOnly = recorder({ role: "admin" });
    expect((await call(adminOnly, "GET", "editor")).status).toBe(403);
    expect((await call(adminOnly, "POST", "admin")).status).toBe(200);
    expect((await call(adminOnly, "POST", "owner")).status).toBe(200);
    const anyMember = recorder({ role: "viewer" });
    expect((await call(anyMember, "POST", "viewer")).status).toBe(200);
  });

  it("answers 401 to a member endpoint called without a member, and to a user endpoint called without a caller", async () => {
    expect((await recorder()(new Request("http://localhost/thing"), {})).status).toBe(401);
    const mine = userEndpoint(async (_request, _params, caller) => Response.json({ user: caller.userId }));
    expect((await mine(new Request("http://localhost/thing"), {})).status).toBe(401);
    expect(await (await mine(new Request("http://localhost/thing"), {}, testMember("w1"))).json()).toEqual({ user: "test-user" });
  });
});

/** Routes other sites call (`{ cors: "public" }`): authorised by what the request names, never by a cookie. */
const corsPublicRoutes = new Set(["hooks/[hookId]/route.ts"]);
const routeName = (file: string) => file.split(path.sep).join("/");

/**
 * Every route is guarded, because every route is an endpoint: each exported handler of every
 * route file refuses a foreign Host (DNS rebinding) and a change from another site before its
 * code runs, and no answer, Next's automatic OPTIONS answer included, carries a CORS header. A
 * new route that bypassed endpoint() fails here. The CORS-public routes are checked apart.
 */
describe("app/api routes are guarded", () => {
  const apiFolder = path.join(process.cwd(), "app", "api");
  const routeFiles = readdirSync(apiFolder, { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "route.ts");
  const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"] as const;
  type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
  const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
  const context = { params: Promise.resolve({}) };

  for (const file of routeFiles.filter((name) => corsPublicRoutes.has(routeName(name)))) {
    const url = `http://localhost/api/${path.dirname(file).split(path.sep).join("/")}`;
    it(`${file} refuses a foreign Host, and lets any site call it and read the answer, preflight included`, async () => {
      const routeModule = (await import(path.join(apiFolder, file))) as Partial<Record<(typeof methods)[number] | "OPTIONS", Handler>>;
      const exported = methods.filter((method) => typeof routeModule[method] === "function");
      expect(exported.length).toBeGreaterThan(0);
      for (const method of exported) {
        const rebound = await routeModule[method]!(new Request(url, { method, headers: { host: "evil.example:3000" } }), context);
        expect([method, rebound.status]).toEqual([method, 421]);
        const crossSite = await routeModule[method]!(
          new Request(url, { method, headers: { origin: "https://customer.example", "content-type": "application/json" }, body: "{}" }),
          { params: Promise.resolve({ hookId: "unknown" }) },
        );
        expect([method, crossSite.status]).toEqual([method, 404]);
        expect(crossSite.headers.get("access-control-allow-origin")).toBe("*");
        expect(crossSite.headers.get("access-control-allow-credentials")).toBeNull();
      }
      const preflight = await routeModule.OPTIONS!(
        new Request(url, { method: "OPTIONS", headers: { origin: "https://customer.example", "access-control-request-method": "POST" } }),
        context,
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    });
  }

  for (const file of routeFiles.filter((name) => !corsPublicRoutes.has(routeName(name)))) {
    const url = `http://localhost/api/${path.dirname(file).split(path.sep).join("/")}`;
    it(`${file} refuses a foreign Host and a cross-site change, and sends no CORS header`, async () => {
      const routeModule = (await import(path.join(apiFolder, file))) as Partial<Record<(typeof methods)[number], Handler>>;
      const exported = methods.filter((method) => typeof routeModule[method] === "function");
      expect(exported.length).toBeGreaterThan(0);
      for (const method of exported) {
        const handler = routeModule[method]!;
        const rebound = await handler(new Request(url, { method, headers: { host: "evil.example:3000" } }), context);
        expect([method, rebound.status]).toEqual([method, 421]);
        expect(await rebound.json()).toMatchObject({ error: { code: "host_not_allowed" } });
        expect(corsHeaders(rebound)).toEqual([]);
        if (method === "GET" || method === "HEAD") continue;
        const crossSite = await handler(
          new Request(url, { method, headers: { origin: "https://evil.example", "content-type": "text/plain" }, body: "{}" }),
          context,
        );
        expect([method, crossSite.status]).toEqual([method, 403]);
        expect(corsHeaders(crossSite)).toEqual([]);
      }
      // Routes export no OPTIONS: Next answers a preflight itself, with Allow and no CORS header.
      const preflight = (await autoImplementMethods(routeModule as never).OPTIONS(
        new Request(url, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } }) as never,
        context as never,
      )) as Response;
      expect(preflight.status).toBe(204);
      expect(corsHeaders(preflight)).toEqual([]);
    });
  }
});

/**
 * Every route under /api but health (liveness and readiness) and the auth routes answers 401 without credentials, before
 * its code runs. Walks the route tree, so a new route cannot be forgotten.
 */
describe("app/api routes need a signed-in caller", () => {
  const apiFolder = path.join(process.cwd(), "app", "api");
  const routeFiles = readdirSync(apiFolder, { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "route.ts");
  // The public chat's routes: a visitor has no account; the chat id and the visitor's cookie say what they may see.
  const chatRoutes = routeFiles.map((file) => file.split(path.sep).join("/")).filter((file) => file.startsWith("chat/"));
  const publicRoutes = new Set([
    "health/route.ts",
    // Readiness, for load balancers: says whether the database answers, nothing stored.
    "health/ready/route.ts",
    "openapi.json/route.ts",
    "auth/[...all]/route.ts",
    "auth/invitations/[token]/route.ts",
    ...corsPublicRoutes,
    ...chatRoutes,
  ]);
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
  type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

  it("leaves only health, the API description, the auth routes, the public chat and the CORS-public routes (hooks) public", () => {
    expect(routeFiles.filter((file) => publicRoutes.has(file.split(path.sep).join("/"))).sort()).toEqual([...publicRoutes].sort());
  });

  for (const file of routeFiles.filter((name) => !publicRoutes.has(name.split(path.sep).join("/")))) {
    const url = `http://localhost/api/${path.dirname(file).split(path.sep).join("/")}`;
    it(`${file} answers 401 without credentials`, async () => {
      const routeModule = (await import(path.join(apiFolder, file))) as Partial<Record<(typeof methods)[number], Handler>>;
      const exported = methods.filter((method) => typeof routeModule[method] === "function");
      expect(exported.length).toBeGreaterThan(0);
      for (const method of exported) {
        // Bodiless, so the media-type check (415 for an upload route sent JSON) does not answer first.
        const answer = await routeModule[method]!(new Request(url, { method }), {
          params: Promise.resolve({ id: "x", name: "X", documentId: "x", server: "x", toolCallId: "x", workspaceId: "x", userId: "x", invitationId: "x" }),
        });
        expect([method, answer.status]).toEqual([method, 401]);
        expect(await answer.json()).toMatchObject({ error: { code: "unauthenticated" } });
      }
    });
  }
});
