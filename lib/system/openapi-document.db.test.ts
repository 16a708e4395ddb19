import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS, type ApiOperation } from "@/contract/openapi";
import * as openApiRoute from "@/app/api/openapi.json/route";
import { openApiDocument } from "./openapi-document";

/**
 * The document over HTTP, through the real route module (route() guards and authenticates), and
 * each catalog entry's access checked against the route that serves it.
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const root = path.resolve(__dirname, "..", "..");

/** A request with no credentials at all: no Authorization, no cookie, as a script or curl sends it. */
function anonymous(method: string, urlPath: string, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${urlPath}`, { method, headers });
}

/**
 * The route module serving an operation: `/api/runs/{id}` lives in `app/api/runs/[id]/route.ts`,
 * and a parameter that spans segments (`/api/prices/{model}`) in a catch-all, `[...model]`.
 */
async function handlerOf(operation: ApiOperation): Promise<Handler> {
  const single = path.join(root, "app", operation.path.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");
  const file = existsSync(single) ? single : path.join(root, "app", operation.path.replace(/\{(\w+)\}/g, "[...$1]"), "route.ts");
  const routeModule = (await import(/* @vite-ignore */ file)) as Record<string, Handler | undefined>;
  const handler = routeModule[operation.method];
  if (!handler) throw new Error(`${file} exports no ${operation.method}`);
  return handler;
}

describe("GET /api/openapi.json", () => {
  it("answers the document without credentials, the same one each time", async () => {
    const response = await openApiRoute.GET(anonymous("GET", "/api/openapi.json"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const body = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths).sort()).toEqual([...new Set(API_OPERATIONS.map((operation) => operation.path))].sort());
    expect(body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    // Built once per process: a second request is answered from the same object.
    expect(openApiDocument()).toBe(openApiDocument());
  });

  it("is guarded like every route: a Host the server does not answer to is refused", async () => {
    const response = await openApiRoute.GET(anonymous("GET", "/api/openapi.json", { host: "rebound.example" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(421);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("host_not_allowed");
  });
});

describe("each catalog entry's access", () => {
  it.each(API_OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s: matches its route without credentials",
    async (_name, operation) => {
      const handler = await handlerOf(operation);
      const params = Object.fromEntries([...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => [match[1]!, "unknown-id"]));
      const urlPath = operation.path.replace(/\{(\w+)\}/g, "unknown-id");
      const response = await handler(anonymous(operation.method, urlPath), { params: Promise.resolve(params) });
      if (operation.access === "public") {
        // Public: answered on its own terms (200, 400 for a body it needs, or 404 for an id nobody made), never 401.
        expect([200, 400, 404]).toContain(response.status);
      } else {
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
      }
    },
  );
});
