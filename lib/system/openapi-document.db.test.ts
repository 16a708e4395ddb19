import { describe, expect, it } from "vitest";
import { API_OPERATIONS } from "@/contract/openapi";
import { answerApiRequest } from "@/lib/api";
import { openApiDocument } from "./openapi-document";

/**
 * The document over HTTP, through the app's API as the catch-all route serves it (the dispatcher
 * guards and authenticates), and each catalog entry's access checked against what serves it.
 */

/** A request with no credentials at all: no Authorization, no cookie, as a script or curl sends it. */
function anonymous(method: string, urlPath: string, headers: Record<string, string> = {}) {
  return new Request(`http://localhost${urlPath}`, { method, headers });
}

describe("GET /api/openapi.json", () => {
  it("answers the document without credentials, the same one each time", async () => {
    const response = await answerApiRequest(anonymous("GET", "/api/openapi.json"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const body = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths).sort()).toEqual(
      [...new Set(API_OPERATIONS.map((operation) => operation.path))].sort(),
    );
    expect(body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    // Built once per process: a second request is answered from the same object.
    expect(openApiDocument()).toBe(openApiDocument());
  });

  it("is guarded like every route: a Host the server does not answer to is refused", async () => {
    const response = await answerApiRequest(anonymous("GET", "/api/openapi.json", { host: "rebound.example" }));
    expect(response.status).toBe(421);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("host_not_allowed");
  });
});

describe("each catalog entry's access", () => {
  it.each(API_OPERATIONS.map((operation) => [`${operation.method} ${operation.path}`, operation] as const))(
    "%s: matches its route without credentials",
    async (_name, operation) => {
      const urlPath = operation.path.replace(/\{(\w+)\}/g, "unknown-id");
      const response = await answerApiRequest(anonymous(operation.method, urlPath));
      if (operation.access === "public") {
        // Public: answered on its own terms (200, 400 for a body it needs, 404 for an id nobody made, or 403 where it has a
        // guard of its own: the metrics answer only this machine or their token), never 401.
        expect([200, 400, 403, 404]).toContain(response.status);
      } else {
        expect(response.status).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
      }
    },
  );
});
