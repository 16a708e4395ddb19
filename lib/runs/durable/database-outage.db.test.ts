import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processMetrics } from "@/lib/observability";
import { createPrisma, createRepositories, type Database, type Repositories } from "@/lib/db";
import { postgresBinDir, startPrivatePostgres, type PrivatePostgres } from "@/lib/db/test-private-postgres";
import { testMember } from "@/lib/http/test-members";
import { databaseProbe } from "@/lib/system/readiness";
import { processHealthDetails } from "@/lib/system/health-details";
import { systemEndpoints } from "@/lib/system/system-endpoints";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import {
  contiguousEvents,
  durableResponder,
  ENDED,
  fastSlowDocument,
  killAllWorkers,
  modelEnv,
  requestsWith,
  spawnWorker,
  startWebProcess,
  twoBlockDocument,
  waitFor,
  waitForEnd,
  type SlowPlan,
  type WebProcess,
  type WorkerProcess,
} from "./__fixtures__/durable-kit";

/**
 * Database outages (issue 40): a private PostgreSQL server of this file's own, stopped and started
 * (or cut off) while a `npm run worker` child and this process (as a web process) use it. The
 * shared server is never touched. Skipped where the PostgreSQL server programs are missing.
 */

const hasServer = Boolean(postgresBinDir());

describe.skipIf(!hasServer)("a database outage", () => {
  let server: PrivatePostgres;
  let database: Database;
  let repositories: Repositories;
  let llm: TestLlmServer;
  let dataDir: string;
  let worker: WorkerProcess;
  let workerId: string;
  let web: WebProcess;
  let workspaceId: string;
  const plans = new Map<string, SlowPlan>();

  beforeAll(async () => {
    server = await startPrivatePostgres();
    database = createPrisma({ kind: "postgres", url: server.url });
    repositories = createRepositories(database.prisma, {
      secretKey: randomBytes(32),
      url: server.url,
      backend: "postgres",
    });
    llm = await startTestLlmServer({ defaultResponder: durableResponder(plans) });
    dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-outage-"));
    worker = spawnWorker("W", { DATABASE_URL: server.url, DATA_DIR: dataDir, ...modelEnv(llm) });
    workerId = await worker.ready;
    web = await startWebProcess({ repositories, llm, url: server.url, singleProcess: false });
    workspaceId = (await database.prisma.workspace.create({ data: { name: "Outage" } })).id;
  }, 90_000);

  afterAll(async () => {
    await web?.stop().catch(() => {});
    await killAllWorkers();
    await repositories?.runWriter.close().catch(() => {});
    await database?.close().catch(() => {});
    await llm?.close();
    await server?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const marker = () => `m-${randomUUID().slice(0, 8)}`;

  /** The first value `work` gives once the database answers again. */
  async function waitForValue<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
    let value: T | undefined;
    await waitFor(
      "the database to answer",
      () =>
        work().then(
          (result) => ((value = result), true),
          () => false,
        ),
      timeoutMs,
      100,
    );
    return value as T;
  }

  it("runs in flight across a restart end succeeded with contiguous events, and the worker goes on executing runs", async () => {
    const workflow = await repositories.workflows.create(workspaceId, fastSlowDocument());
    const markers = Array.from({ length: 6 }, marker);
    // Each SLOW answer streams for about 6 s, so every run is mid-way when the server goes down.
    for (const each of markers) plans.set(each, { chunks: 12, delayMs: 500 });
    const started = await Promise.all(
      markers.map((each) => web.runtime.runs.start(workspaceId, workflow.id, { marker: each })),
    );
    await waitFor(
      "every SLOW call in flight",
      () => markers.every((each) => requestsWith(llm, `SLOW ${each}`) === 1),
      30_000,
    );

    const downAt = Date.now();
    await server.restart(2_000);
    const upAfter = Date.now() - downAt;

    const ended = await Promise.all(started.map((run) => waitForEnd(repositories, workspaceId, run.runId, 60_000)));
    const endedAfter = Date.now() - downAt;
    expect(worker.alive(), worker.log()).toBe(true);
    expect(ended.map((run) => [run.status, run.error])).toEqual(markers.map(() => ["succeeded", null]));
    for (const run of ended) {
      const types = (await contiguousEvents(repositories, run.id)).map((event) => event.type);
      expect(types.at(-1)).toBe("run.completed");
    }

    // The worker still takes runs.
    const quick = await repositories.workflows.create(workspaceId, twoBlockDocument());
    const after = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        web.runtime.runs.start(workspaceId, quick.id, { marker: `after-${index}` }),
      ),
    );
    const done = await Promise.all(after.map((run) => waitForEnd(repositories, workspaceId, run.runId, 30_000)));
    expect(done.map((run) => [run.status, run.worker])).toEqual(done.map(() => ["succeeded", workerId]));
    console.info(
      `[outage] restart with 2 s down: server back after ${upAfter} ms; 6 runs in flight ended ${endedAfter} ms after it went down`,
    );
  }, 120_000);

  it("sessions ended and connections refused for 10 s: runs in flight succeed with contiguous events, and a run started after is executed", async () => {
    const workflow = await repositories.workflows.create(workspaceId, fastSlowDocument());
    const markers = Array.from({ length: 4 }, marker);
    for (const each of markers) plans.set(each, { chunks: 8, delayMs: 500 });
    const started = await Promise.all(
      markers.map((each) => web.runtime.runs.start(workspaceId, workflow.id, { marker: each })),
    );
    await waitFor(
      "every SLOW call in flight",
      () => markers.every((each) => requestsWith(llm, `SLOW ${each}`) === 1),
      30_000,
    );

    const downAt = Date.now();
    await server.blockConnections(10_000);
    const upAt = Date.now();
    const quick = await waitForValue(() => repositories.workflows.create(workspaceId, twoBlockDocument()), 20_000);
    const next = await web.runtime.runs.start(workspaceId, quick.id, { marker: "after-block" });
    const nextRun = await waitForEnd(repositories, workspaceId, next.runId, 60_000);
    const nextAfter = Date.now() - upAt;
    const ended = await Promise.all(started.map((run) => waitForEnd(repositories, workspaceId, run.runId, 60_000)));
    expect(worker.alive(), worker.log()).toBe(true);
    expect(nextRun.status).toBe("succeeded");
    expect(ended.map((run) => [run.status, run.error])).toEqual(markers.map(() => ["succeeded", null]));
    for (const run of ended) expect((await contiguousEvents(repositories, run.id)).at(-1)?.type).toBe("run.completed");
    console.info(
      `[outage] connections refused for ${upAt - downAt} ms: a run started once the web process could store it ended ${nextAfter} ms after connections were allowed again; 4 runs in flight succeeded with contiguous events`,
    );
  }, 120_000);

  it("a cancel sent through the web process right after an outage reaches the run executing in the worker", async () => {
    const workflow = await repositories.workflows.create(workspaceId, fastSlowDocument());
    const each = marker();
    plans.set(each, { chunks: 60, delayMs: 500 });
    const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker: each });
    await waitFor("the SLOW call in flight", () => requestsWith(llm, `SLOW ${each}`) === 1, 30_000);

    await server.blockConnections(1_500);
    // As soon as the web process reaches the database again: the worker's listener may still be away.
    await waitFor(
      "the web process to reach the database",
      () =>
        repositories.runs.get(workspaceId, live.runId).then(
          () => true,
          () => false,
        ),
      20_000,
      50,
    );
    const cancelledAt = Date.now();
    await waitFor(
      "the cancel to go out",
      () =>
        web.runtime.runs.cancel(workspaceId, live.runId).then(
          () => true,
          () => false,
        ),
      20_000,
      100,
    );
    const run = await waitForEnd(repositories, workspaceId, live.runId, 20_000);
    const after = Date.now() - cancelledAt;
    expect(worker.alive(), worker.log()).toBe(true);
    expect(run.status).toBe("cancelled");
    expect(ENDED).toContain(run.status);
    expect((await contiguousEvents(repositories, live.runId)).at(-1)?.type).toBe("run.cancelled");
    console.info(`[outage] cancel right after connections came back: the run ended cancelled ${after} ms later`);
  }, 90_000);

  it("while the server is down, an API call answers 503 database_unavailable with Retry-After and readiness is 503; both recover by themselves", async () => {
    const system = systemEndpoints({
      toolCatalog: () => ({ tools: [], mcpServers: [] }),
      mcpServers: () => ({}),
      secretNames: async () => [],
      env: () => undefined,
      healthDetails: (options) => processHealthDetails({ executingRuns: () => 0 }, options),
      readinessProbes: () => [databaseProbe(() => database.prisma.$queryRaw`SELECT 1`)],
      metrics: () => processMetrics(),
    });
    const request = (path: string) => new Request(`http://localhost${path}`);
    const listRuns = () => web.endpoints.listWorkspace(request("/api/runs"), {}, testMember(workspaceId, "viewer"));
    expect((await system.ready(request("/api/health/ready"), {})).status).toBe(200);
    expect((await listRuns()).status).toBe(200);

    await server.stop();
    const stoppedAt = Date.now();
    try {
      const answer = await listRuns();
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("database_unavailable");
      expect(body.error.message).not.toMatch(/127\.0\.0\.1|postgres:/);
      const ready = await system.ready(request("/api/health/ready"), {});
      expect(ready.status).toBe(503);
      expect(ready.headers.get("retry-after")).toBe("5");
      expect(await ready.json()).toMatchObject({
        ok: false,
        checks: { database: { ok: false, error: "The database cannot be reached." } },
      });
      // Liveness stays up: restarting this process would not bring the database back.
      expect((await system.health(request("/api/health"), {})).status).toBe(200);
    } finally {
      await server.start();
    }
    const startedAfter = Date.now() - stoppedAt;
    let readyAfter = 0;
    await waitFor(
      "readiness to answer 200 again",
      async () => (await system.ready(request("/api/health/ready"), {})).status === 200,
      20_000,
      50,
    );
    readyAfter = Date.now() - stoppedAt;
    expect((await listRuns()).status).toBe(200);
    console.info(
      `[outage] server stopped and started in ${startedAfter} ms; readiness 200 again after ${readyAfter} ms`,
    );
  }, 60_000);
});
