import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { serveOverHttp, type ServedOverHttp } from "@/lib/http/__fixtures__/serve-over-http";
import { testMember } from "@/lib/http/test-members";
import { processMetrics } from "@/lib/observability";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { startPrometheus, type PrometheusServer } from "./__fixtures__/prometheus-server";
import { systemEndpoints } from "./system-endpoints";

/**
 * Issue 34: a real Prometheus (Debian's package) scrapes GET /api/metrics over HTTP while runs
 * execute, and PromQL over its HTTP API finds the runs and what they cost.
 */

const TOKEN = "scrape-token-8c2e71";
const RUNS = 4;

let kit: RunTestKit;
let app: ServedOverHttp;
let prometheus: PrometheusServer;
let ws: string;
let member: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
  const system = systemEndpoints({
    toolCatalog: () => ({ tools: [], mcpServers: [] }),
    mcpServers: () => ({}),
    secretNames: async () => [],
    env: (name) => (name === "TRELLIS_METRICS_TOKEN" ? TOKEN : undefined),
    healthDetails: () => {
      throw new Error("not asked here");
    },
    readinessProbes: () => [],
    metrics: processMetrics,
  });
  app = await serveOverHttp((request) => system.metrics(request, {}));
  prometheus = await startPrometheus({ target: `127.0.0.1:${app.port}`, metricsPath: "/api/metrics", token: TOKEN });
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await app?.close();
  await kit?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  let last: T;
  do {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  } while (Date.now() < deadline);
  throw new Error(`${what}: still ${String(last)} after 20 s`);
}

describe("Prometheus scraping /api/metrics", () => {
  it("counts the runs and their cost, as PromQL over Prometheus's API answers", async () => {
    const workflow = await kit.database.repositories.workflows.create(
      ws,
      supportRoutingDocument("openai/gpt-4o-mini") as never,
    );
    const costs: number[] = [];
    // One after another, each model answer taking a while, so Prometheus scrapes while they execute.
    for (let index = 0; index < RUNS; index++) {
      kit.server.enqueue(
        { kind: "text", text: "support", usage: { prompt: 400 + index, completion: 3 }, delayMs: 300 },
        { kind: "text", text: "On its way.", usage: { prompt: 90, completion: 11 + index }, delayMs: 300 },
      );
      const answer = await kit.endpoints.start(
        new Request(`http://localhost/api/workflows/${workflow.id}/runs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ input: { message: "Where is my order? I need support" }, wait: true }),
        }),
        { id: workflow.id },
        member,
      );
      const run = (await answer.json()) as { status: string; cost: { total: number } };
      expect(run.status).toBe("succeeded");
      costs.push(run.cost.total);
    }
    const expectedCost = costs.reduce((sum, cost) => sum + cost, 0);
    expect(expectedCost).toBeGreaterThan(0);

    const runs = await until(
      () => prometheus.query(`sum(trellis_runs_total{status="succeeded",workspace="${ws}"})`),
      (value) => value === RUNS,
      "the runs Prometheus counted",
    );
    expect(runs).toBe(RUNS);
    const spent = await until(
      () => prometheus.query(`sum(trellis_run_cost_usd_total{workspace="${ws}"})`),
      (value) => value !== undefined && Math.abs(value - expectedCost) < 1e-12,
      "the dollars Prometheus summed",
    );
    expect(spent).toBeCloseTo(expectedCost, 12);
    expect(await prometheus.query(`sum(trellis_runs_started_total{workspace="${ws}",trigger="editor"})`)).toBe(RUNS);
    // Each run made two model calls, both counted by model with their tokens.
    expect(await prometheus.query(`sum(trellis_model_calls_total{model="openai/gpt-4o-mini"})`)).toBeGreaterThanOrEqual(
      RUNS * 2,
    );
    expect(
      await prometheus.query(`trellis_run_duration_seconds_count{status="succeeded",trigger="editor"}`),
    ).toBeGreaterThanOrEqual(RUNS);
    expect(await prometheus.query(`up{job="trellis"}`)).toBe(1);
  }, 90_000);
});
