import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpoint, route } from "./endpoint";
import { RequestError } from "./errors";

describe("endpoint and route", () => {
  it("answers a thrown error with the contract's error body", async () => {
    const refuse = endpoint(async () => {
      throw new RequestError("invalid_request", "The thing is invalid.", [{ path: "name", message: "is required" }]);
    });
    const response = await refuse(new Request("http://test/thing"), {});
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "invalid_request", message: "The thing is invalid.", details: [{ path: "name", message: "is required" }] },
    });
  });

  it("binds an endpoint as a route handler, passing the awaited params", async () => {
    const echo = endpoint<{ id: string }>(async (request, { id }) => Response.json({ id, method: request.method }));
    const response = await route(echo)(new Request("http://test/things/7", { method: "PUT" }), { params: Promise.resolve({ id: "7" }) });
    expect(await response.json()).toEqual({ id: "7", method: "PUT" });
  });
});

/**
 * One pattern for every route: a route file binds the app's endpoints and holds no logic, so
 * parsing, errors and wiring live in lib/ where they are tested over a test database.
 */
describe("app/api route files", () => {
  const apiFolder = path.join(process.cwd(), "app", "api");
  const routeFiles = readdirSync(apiFolder, { recursive: true, encoding: "utf8" }).filter((file) => path.basename(file) === "route.ts");
  const allowedLines = [
    /^import \{ route \} from "@\/lib\/http\/endpoint";$/,
    /^import \{ app\w+Endpoints \} from "@\/lib\/[\w/-]+";$/,
    /^export const dynamic = "force-dynamic";$/,
    /^export const (GET|POST|PUT|PATCH|DELETE) = route\(app\w+Endpoints\.\w+\);$/,
  ];

  it("are found", () => {
    expect(routeFiles.length).toBeGreaterThan(10);
  });

  for (const file of routeFiles) {
    it(`${file} only binds endpoints with route()`, () => {
      const lines = readFileSync(path.join(apiFolder, file), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "");
      const stray = lines.filter((line) => !allowedLines.some((pattern) => pattern.test(line)));
      expect(stray).toEqual([]);
      expect(lines.some((line) => line.startsWith("export const") && line.includes("= route("))).toBe(true);
      expect(lines.filter((line) => /from "@\/lib\/(runtime|db)\b/.test(line))).toEqual([]);
    });
  }
});
