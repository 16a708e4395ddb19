import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createTrellisMetrics } from "@/lib/observability";
import type { HealthDetails } from "@/contract";
import { testMember } from "@/lib/http/test-members";
import { processHealthDetails } from "./health-details";
import { systemEndpoints } from "./system-endpoints";

const environment: Record<string, string> = {
  OPENAI_API_KEY: "sk-secret",
  DATABASE_URL: "postgres://internal",
  REGION: "eu-west",
  TRELLIS_WORKFLOW_ENV: "REGION, UNSET_NAME,not valid!",
};
const metrics = createTrellisMetrics({ workflowLabel: false });
const endpoints = systemEndpoints({
  toolCatalog: () => ({ tools: [], mcpServers: [] }),
  mcpServers: () => ({}),
  secretNames: async (workspaceId) => (workspaceId === "w1" ? ["SUPPORT_TOKEN"] : ["OTHER_TOKEN"]),
  env: (name) => environment[name],
  healthDetails: (options) => processHealthDetails({ executingRuns: () => 3 }, options),
  readinessProbes: () => [],
  metrics: () => metrics,
});
const get = (path: string) => new Request(`http://localhost${path}`);

describe("system endpoints", () => {
  it("answers the health check", async () => {
    expect(await (await endpoints.health(get("/api/health"), {})).json()).toEqual({ ok: true });
  });

  it("tells a member how loaded the process is (event loop, memory, runs, sandboxes), and refuses anyone signed out", async () => {
    const details = (await (
      await endpoints.healthDetails(get("/api/health/details"), {}, testMember("w1", "viewer"))
    ).json()) as HealthDetails;
    expect(details.ok).toBe(true);
    expect(details.runs.executing).toBe(3);
    expect(details.memory.rssMb).toBeGreaterThan(details.memory.heapUsedMb);
    expect(details.eventLoop.current.windowMs).toBeGreaterThanOrEqual(0);
    expect(details.sandboxes).toMatchObject({ running: 0, waiting: 0, reservedMb: 0 });
    expect(details.sandboxes.concurrency).toBeGreaterThanOrEqual(1);
    expect((await endpoints.healthDetails(get("/api/health/details"), {})).status).toBe(401);
  });

  it("collects garbage first when asked and the process allows it, so the heap figure is what is retained", async () => {
    const member = testMember("w1", "admin");
    const details = async (path: string, asked = member) =>
      ((await (await endpoints.healthDetails(get(path), {}, asked)).json()) as HealthDetails).memory;
    expect((await details("/api/health/details?collect=1")).collected).toBe(false);
    // What --expose-gc gives a process, obtained at run time: V8's real collector.
    v8.setFlagsFromString("--expose-gc");
    const globals = globalThis as { gc?: unknown };
    globals.gc = runInNewContext("gc");
    try {
      let garbage: number[][] | null = Array.from({ length: 200 }, () =>
        Array.from({ length: 10_000 }, (_, index) => index),
      );
      const holding = (await details("/api/health/details")).heapUsedMb;
      garbage = null;
      const collected = await details("/api/health/details?collect=1");
      expect(garbage).toBeNull();
      expect(collected.collected).toBe(true);
      expect(collected.heapUsedMb).toBeLessThan(holding - 10);
      expect((await details("/api/health/details")).collected).toBe(false);
      // A full collection pauses the process: below admin the parameter is ignored.
      expect((await details("/api/health/details?collect=1", testMember("w1", "editor"))).collected).toBe(false);
    } finally {
      delete globals.gc;
    }
  });

  it("offers exactly what a workflow may read: stored secret names and the set variables of TRELLIS_WORKFLOW_ENV, never values", async () => {
    const body = JSON.stringify(
      await (await endpoints.envNames(get("/api/env-names"), {}, testMember("w1", "viewer"))).json(),
    );
    expect(JSON.parse(body)).toEqual({ names: ["REGION", "SUPPORT_TOKEN"] });
    // A provider key of the process runs models but is not readable by a workflow, so it is not offered.
    expect(body).not.toMatch(/sk-secret|OPENAI_API_KEY|DATABASE_URL|eu-west|UNSET_NAME|OTHER_TOKEN/);
  });

  it("lets only editors ask an MCP server for its tools (asking may start its process)", async () => {
    const response = await endpoints.mcpServerTools(
      get("/api/tools/mcp/ghost"),
      { server: "ghost" },
      testMember("w1", "viewer"),
    );
    expect(response.status).toBe(403);
  });

  it("answers 404 naming the configured servers for an unknown MCP server", async () => {
    const response = await endpoints.mcpServerTools(get("/api/tools/mcp/ghost"), { server: "ghost" }, testMember("w1"));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'MCP server "ghost" is not configured (configured: none).',
    );
  });
});
