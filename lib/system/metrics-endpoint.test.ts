import { describe, expect, it } from "vitest";
import { peerAddressHeader } from "@/lib/auth/peer-address";
import { createTrellisMetrics, runMetricsObserver } from "@/lib/observability";
import type { RunRecord } from "@/contract";
import { SandboxGate } from "@/sandbox";
import { registerProcessGauges } from "./process-gauges";
import { systemEndpoints } from "./system-endpoints";

const TOKEN = "metrics-token-4f1c9a";

function serve(env: Record<string, string>) {
  const metrics = createTrellisMetrics({ workflowLabel: false });
  const endpoints = systemEndpoints({
    toolCatalog: () => ({ tools: [], mcpServers: [] }),
    mcpServers: () => ({}),
    secretNames: async () => [],
    env: (name) => env[name],
    healthDetails: () => {
      throw new Error("not asked here");
    },
    readinessProbes: () => [],
    metrics: () => metrics,
  });
  return { metrics, scrape: (headers: Record<string, string> = {}) => endpoints.metrics(request(headers), {}) };
}

function request(headers: Record<string, string>) {
  return new Request("http://localhost/api/metrics", { headers });
}

const fromPeer = (address: string, extra: Record<string, string> = {}) => ({
  [peerAddressHeader()]: address,
  ...extra,
});

const run = {
  id: "r1",
  workflowId: "wf1",
  status: "running",
  trigger: { kind: "api" },
  queuedAt: "2026-01-01T00:00:00.000Z",
  startedAt: "2026-01-01T00:00:00.250Z",
} as unknown as RunRecord;

describe("GET /api/metrics", () => {
  it("with TRELLIS_METRICS_TOKEN set, answers the bearer of the token from anywhere, and 401 to anyone else", async () => {
    const { scrape } = serve({ TRELLIS_METRICS_TOKEN: TOKEN });
    const answer = await scrape({ authorization: `Bearer ${TOKEN}`, ...fromPeer("203.0.113.9") });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    expect(await answer.text()).toContain("# TYPE trellis_runs_total counter");
    expect((await scrape({ authorization: "Bearer wrong" })).status).toBe(401);
    // The token, not the place: loopback without it is refused too.
    const local = await scrape(fromPeer("127.0.0.1"));
    expect(local.status).toBe(401);
    expect(((await local.json()) as { error: { message: string } }).error.message).toContain("TRELLIS_METRICS_TOKEN");
  });

  it("with no token set, answers this machine only: loopback through no proxy", async () => {
    const { scrape } = serve({});
    expect((await scrape(fromPeer("127.0.0.1"))).status).toBe(200);
    expect((await scrape(fromPeer("::1", { "x-forwarded-for": "127.0.0.1" }))).status).toBe(200);
    expect((await scrape(fromPeer("192.168.1.20"))).status).toBe(403);
    // A reverse proxy on this machine forwarding someone else's request.
    expect((await scrape(fromPeer("127.0.0.1", { "x-forwarded-for": "198.51.100.7" }))).status).toBe(403);
    // Not stamped by this process's server: where it came from is unknown.
    expect((await scrape()).status).toBe(403);
  });

  it("shows a run's count, duration and its model calls' tokens and dollars by model, with bounded labels", async () => {
    const { metrics, scrape } = serve({ TRELLIS_METRICS_TOKEN: TOKEN });
    const observer = runMetricsObserver(metrics, run, "ws1");
    observer.event({ type: "run.started", runId: "r1", workflowId: "wf1", startedAt: run.startedAt });
    observer.span({
      id: "m1",
      runId: "r1",
      parentId: "b1",
      kind: "model",
      blockId: "agent",
      blockName: "Agent",
      blockType: "agent",
      model: "openai/gpt-4o",
      status: "succeeded",
      startedAt: run.startedAt,
      durationMs: 40,
      usage: {
        tokens: { prompt: 100, completion: 20, total: 120 },
        cost: { input: 0.00025, output: 0.0002, total: 0.00045 },
      },
    });
    observer.span({
      id: "b1",
      runId: "r1",
      parentId: null,
      kind: "block",
      blockId: "agent",
      blockName: "Agent",
      blockType: "agent",
      status: "succeeded",
      startedAt: run.startedAt,
      durationMs: 45,
    });
    observer.event({
      type: "run.completed",
      runId: "r1",
      output: null,
      durationMs: 1500,
      tokens: { prompt: 100, completion: 20, total: 120 },
      cost: { input: 0.00025, output: 0.0002, total: 0.00045 },
    });
    const text = await (await scrape({ authorization: `Bearer ${TOKEN}` })).text();
    expect(text).toContain('trellis_runs_started_total{trigger="api",workspace="ws1"} 1');
    expect(text).toContain('trellis_runs_total{status="succeeded",trigger="api",workspace="ws1"} 1');
    expect(text).toContain('trellis_run_duration_seconds_bucket{le="2.5",status="succeeded",trigger="api"} 1');
    expect(text).toContain("trellis_queue_wait_seconds_sum 0.25");
    expect(text).toContain('trellis_block_duration_seconds_count{block_type="agent",status="succeeded"} 1');
    expect(text).toContain('trellis_model_tokens_total{model="openai/gpt-4o",kind="prompt"} 100');
    expect(text).toContain('trellis_model_tokens_total{model="openai/gpt-4o",kind="completion"} 20');
    expect(text).toContain('trellis_model_cost_usd_total{model="openai/gpt-4o"} 0.00045');
    expect(text).toContain('trellis_run_cost_usd_total{trigger="api",workspace="ws1"} 0.00045');
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
    expect(text).not.toContain("r1");
  });

  it("reads the scrape-time gauges when scraped: queue, leases, knowledge queue, live runs, the sandbox gate and its waits", async () => {
    const { metrics, scrape } = serve({ TRELLIS_METRICS_TOKEN: TOKEN });
    const gate = new SandboxGate({ concurrency: 1, memoryMb: 1024 });
    let queued = 4;
    registerProcessGauges(metrics, {
      queueDepth: async () => queued,
      workerLeases: async () => {
        throw new Error("the database is away");
      },
      knowledgeQueue: async () => ({ pending: 2, processing: 1 }),
      liveRuns: () => 3,
      sandbox: gate,
    });
    const first = await gate.acquire(100);
    const second = gate.acquire(100);
    await new Promise((resolve) => setTimeout(resolve, 20));
    let text = await (await scrape({ authorization: `Bearer ${TOKEN}` })).text();
    expect(text).toContain("trellis_queue_depth 4");
    // A figure that could not be read is NaN (prom-client writes "Nan"; Prometheus reads either).
    expect(text).toMatch(/^trellis_worker_leases nan$/im);
    expect(text).toContain('trellis_knowledge_documents{status="pending"} 2');
    expect(text).toContain("trellis_live_runs 3");
    expect(text).toContain("trellis_sandbox_running 1");
    expect(text).toContain("trellis_sandbox_waiting 1");
    first.release();
    (await second).release();
    queued = 0;
    text = await (await scrape({ authorization: `Bearer ${TOKEN}` })).text();
    expect(text).toContain("trellis_queue_depth 0");
    expect(text).toContain("trellis_sandbox_wait_seconds_count 2");
    expect(Number(/trellis_sandbox_wait_seconds_sum (\S+)/.exec(text)![1])).toBeGreaterThan(0.015);
  });
});
