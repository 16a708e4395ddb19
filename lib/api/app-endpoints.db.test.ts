import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS, fillPath, type ApiOperation } from "@/contract/openapi";
import { answerApiRequest, APP_ENDPOINTS } from "@/lib/api";

const url = (operation: ApiOperation) => `http://localhost${fillPath(operation, new Proxy({}, { get: () => "x" }))}`;
const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));
const isChange = (operation: ApiOperation) => operation.method !== "GET";

describe("the app's endpoints", () => {
  it("bind every declared operation once, and nothing undeclared", () => {
    const bound = APP_ENDPOINTS.map((endpoint) => endpoint.operation.operationId).sort();
    expect(bound).toEqual(API_OPERATIONS.map((operation) => operation.operationId).sort());
    // The very declarations: what the OpenAPI document publishes is what each endpoint enforces.
    for (const endpoint of APP_ENDPOINTS) expect(API_OPERATIONS).toContain(endpoint.operation);
  });

  it("are served by one catch-all route file, so no route can bypass its declaration", () => {
    const apiFolder = path.join(process.cwd(), "app", "api");
    const routeFiles = readdirSync(apiFolder, { recursive: true, encoding: "utf8" }).filter(
      (file) => path.basename(file) === "route.ts",
    );
    expect(routeFiles.map((file) => file.split(path.sep).join("/"))).toEqual(["[...path]/route.ts"]);
  });
});

/**
 * Every operation is guarded: each refuses a foreign Host (DNS rebinding) and a change from
 * another site before its code runs, and no answer, the preflight included, carries a CORS header
 * unless the operation is declared `cors: "public"` (a hook), whose answers any site may read.
 */
describe("every operation is guarded", () => {
  it.each(API_OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s",
    async (_name, operation) => {
      const open = operation.cors === "public";
      const rebound = await answerApiRequest(
        new Request(url(operation), { method: operation.method, headers: { host: "evil.example:3000" } }),
      );
      expect(rebound.status).toBe(421);
      expect(await rebound.json()).toMatchObject({ error: { code: "host_not_allowed" } });
      expect(corsHeaders(rebound).length > 0).toBe(open);
      if (isChange(operation) && !open) {
        const crossSite = await answerApiRequest(
          new Request(url(operation), {
            method: operation.method,
            headers: { origin: "https://evil.example", "content-type": "text/plain" },
            body: "{}",
          }),
        );
        expect(crossSite.status).toBe(403);
        expect(corsHeaders(crossSite)).toEqual([]);
      }
      const preflight = await answerApiRequest(
        new Request(url(operation), {
          method: "OPTIONS",
          headers: { origin: "https://customer.example", "access-control-request-method": operation.method },
        }),
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(open ? "*" : null);
    },
  );

  it("lets any site call a CORS-public operation and read its answer, without credentials", async () => {
    const open = API_OPERATIONS.filter((operation) => operation.cors === "public");
    expect(open.map((operation) => operation.operationId)).toEqual(["receiveWebhook"]);
    const crossSite = await answerApiRequest(
      new Request("http://localhost/api/hooks/unknown", {
        method: "POST",
        headers: { origin: "https://customer.example", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(crossSite.status).toBe(404);
    expect(crossSite.headers.get("access-control-allow-origin")).toBe("*");
    expect(crossSite.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

/**
 * docs/CONTRACT.md section 5: every route under /api except health, the auth routes, hooks and the
 * public chat needs credentials (the API's own description is public too, and the metrics have a
 * token of their own, or loopback, rather than a user's credentials). The public operations
 * are those declared `access: "public"`; each must sit under one of those prefixes, and every other
 * operation answers 401 without credentials, before its code runs.
 */
describe("credentials", () => {
  const PUBLIC_PREFIXES = [
    "/api/health",
    "/api/openapi.json",
    "/api/metrics",
    "/api/auth/",
    "/api/hooks/",
    "/api/chat/",
  ];

  it("are needed everywhere but health, the API description, the metrics, the auth routes, hooks and the public chat", () => {
    const publicPaths = API_OPERATIONS.filter((operation) => operation.access === "public").map(
      (operation) => operation.path,
    );
    expect(
      publicPaths.filter((path) => !PUBLIC_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix))),
    ).toEqual([]);
    expect(
      new Set(publicPaths.map((path) => PUBLIC_PREFIXES.find((prefix) => path === prefix || path.startsWith(prefix)))),
    ).toEqual(new Set(PUBLIC_PREFIXES));
  });

  it.each(
    API_OPERATIONS.filter((operation) => operation.access !== "public").map(
      (operation) => [`${operation.method} ${operation.path}`, operation] as const,
    ),
  )("%s answers 401 without credentials", async (_name, operation) => {
    // Bodiless, so the media-type check (415 for an upload sent JSON) does not answer first.
    const answer = await answerApiRequest(new Request(url(operation), { method: operation.method }));
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: { code: "unauthenticated" } });
  });
});
