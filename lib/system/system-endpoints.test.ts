import { describe, expect, it } from "vitest";
import { systemEndpoints } from "./system-endpoints";

const environment: Record<string, string> = { OPENAI_API_KEY: "sk-secret", DATABASE_URL: "postgres://internal" };
const endpoints = systemEndpoints({
  toolCatalog: () => ({ tools: [], mcpServers: [] }),
  mcpServers: () => ({}),
  secretNames: async () => ["SUPPORT_TOKEN"],
  env: (name) => environment[name],
});
const get = (path: string) => new Request(`http://test${path}`);

describe("system endpoints", () => {
  it("answers the health check", async () => {
    expect(await (await endpoints.health(get("/api/health"), {})).json()).toEqual({ ok: true });
  });

  it("offers stored secret names and set provider variables, never values or other variables", async () => {
    const body = JSON.stringify(await (await endpoints.envNames(get("/api/env-names"), {})).json());
    expect(JSON.parse(body)).toEqual({ names: ["OPENAI_API_KEY", "SUPPORT_TOKEN"] });
    expect(body).not.toMatch(/sk-secret|DATABASE_URL/);
  });

  it("answers 404 naming the configured servers for an unknown MCP server", async () => {
    const response = await endpoints.mcpServerTools(get("/api/tools/mcp/ghost"), { server: "ghost" });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('MCP server "ghost" is not configured (configured: none).');
  });
});
