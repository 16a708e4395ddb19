import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, type CapturedLogs } from "@/lib/observability/__fixtures__/captured-logs";
import type { RunEvent, RunRecord } from "@/contract";
import { createPrisma, createRepositories, loadSecretKey, type Repositories } from "@/lib/db";
import { migrateDatabase } from "@/lib/db/migrate/apply-migrations.mjs";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { startRunWorkers } from "@/lib/runs/durable/run-workers";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import {
  contiguousEvents,
  durableResponder,
  expectNoSpanRunning,
  fastSlowDocument,
  figures,
  killAllWorkers,
  LEASE_MS,
  modelEnv,
  readStream,
  requestsWith,
  spawnWorker,
  startWebProcess,
  storageTrouble,
  testRuntime,
  testWorkerConfig,
  twoBlockDocument,
  waitFor,
  waitForEnd,
  type SlowPlan,
  type WebProcess,
  type WorkerProcess,
} from "./__fixtures__/durable-kit";

/**
 * Durable runs across real processes (docs/CONTRACT.md sections 5, 6 and 11): `npm run worker`
 * children killed with SIGKILL, taken over, cancelled from another process, started beside a
 * live one. Several processes share a database only on PostgreSQL; on the embedded database one
 * process owns the data directory, so there the process that comes back after the kill is this one.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
/** A test's name, saying why it is skipped when it is. */
const postgresOnly = (name: string) =>
  onPostgres
    ? name
    : `${name} [skipped: several processes share one database only on PostgreSQL; the embedded database belongs to one process]`;
const embeddedOnly = (name: string) =>
  onPostgres ? `${name} [skipped: runs in the suite without DATABASE_URL]` : name;

afterAll(killAllWorkers);

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "trellis-durable-"));
}

/**
 * Lets the worker store what it reported when the SLOW call went out (its recorder writes every
 * 100 ms), so the kill leaves a Slow span marked running: the answer is still seconds away.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

const markerOf = (index: number) => `run${index}-${randomUUID().slice(0, 8)}`;

interface Recovery {
  repositories: Repositories;
  endpoints: RunEndpoints;
  llm: TestLlmServer;
  workspaceId: string;
  runIds: string[];
  markers: string[];
  deadWorker: string;
  newWorker: string;
  killedAt: number;
}

/**
 * What a user notices after the process executing three runs was killed mid-way and another one
 * took over: every run succeeded, no finished block ran again, the stream is whole and says the
 * run was recovered, the trace has nothing left running and shows who did what.
 */
async function expectRecovered(recovery: Recovery): Promise<number[]> {
  const { repositories, llm, workspaceId, markers, deadWorker, newWorker } = recovery;
  const takeovers: number[] = [];
  for (const [index, runId] of recovery.runIds.entries()) {
    const marker = markers[index]!;
    const run = await repositories.runs.get(workspaceId, runId);
    expect(run.status, `run ${marker}: ${JSON.stringify(run.error)}`).toBe("succeeded");
    expect(run.output).toEqual({ fast: `fast answer to FAST ${marker}`, slow: "part1 part2 part3 part4 " });
    expect(run.worker).toBe(newWorker);
    expect(run.recoveries).toBe(1);
    expect(run.durationMs).toBeGreaterThan(0);

    // Fast finished before the kill: it is never asked again. Slow was in flight: asked once more.
    expect(requestsWith(llm, `FAST ${marker}`), `FAST requests of ${marker}`).toBe(1);
    expect(requestsWith(llm, `SLOW ${marker}`), `SLOW requests of ${marker}`).toBe(2);

    const events = await contiguousEvents(repositories, runId);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === "run.started")).toHaveLength(1);
    const resumed = events.filter(
      (event): event is Extract<RunEvent, { type: "run.resumed" }> => event.type === "run.resumed",
    );
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatchObject({ reason: "recovered", worker: newWorker });
    expect(events.filter((event) => event.type === "block.completed" && event.blockId === "fast")).toHaveLength(1);
    expect(types.indexOf("run.resumed")).toBeGreaterThan(
      events.findIndex((event) => event.type === "block.completed" && event.blockId === "fast"),
    );
    // The block that was running when the worker died is closed in the stream before the run goes on.
    const lostBlocks = events.filter(
      (event): event is Extract<RunEvent, { type: "block.failed" }> => event.type === "block.failed",
    );
    expect(lostBlocks.map((event) => [event.blockId, event.error.code, event.handled])).toEqual([
      ["slow", "worker_lost", false],
    ]);
    expect(types.indexOf("block.failed")).toBeLessThan(types.indexOf("run.resumed"));
    expect(types.at(-1)).toBe("run.completed");

    // The stream a client opens afterwards: the same events under the same ids.
    const streamed = await readStream(recovery.endpoints, workspaceId, runId);
    expect(streamed.map((event) => event.id)).toEqual(events.map((_, at) => at + 1));
    expect(streamed.map((event) => event.event)).toEqual(types);
    expect(streamed.find((event) => event.event === "run.resumed")?.data.reason).toBe("recovered");

    const spans = await repositories.spans.listByRun(runId);
    expectNoSpanRunning(spans, runId);
    const resumedAt = Date.parse(resumed[0]!.resumedAt);
    const later = spans.filter((span) => Date.parse(span.startedAt) >= resumedAt);
    expect(later.length).toBeGreaterThan(0);
    expect(new Set(later.map((span) => span.worker))).toEqual(new Set([newWorker]));
    const blockSpans = spans.filter((span) => span.kind === "block");
    expect(blockSpans.filter((span) => span.blockId === "fast").map((span) => [span.status, span.worker])).toEqual([
      ["succeeded", deadWorker],
    ]);
    const slow = blockSpans.filter((span) => span.blockId === "slow");
    expect(slow.map((span) => [span.status, span.worker, span.error?.code ?? null])).toEqual([
      ["failed", deadWorker, "worker_lost"],
      ["succeeded", newWorker, null],
    ]);
    expect(lostBlocks[0]?.spanId).toBe(slow[0]?.id);
    takeovers.push(resumedAt - recovery.killedAt);
  }
  return takeovers;
}

describe("kill -9 mid-way", () => {
  let llm: TestLlmServer;
  beforeAll(async () => {
    llm = await startTestLlmServer({ defaultResponder: durableResponder() });
  });
  afterAll(() => llm?.close());

  it.skipIf(!onPostgres)(
    postgresOnly(
      "PostgreSQL: a worker started after the kill takes over, and every run finishes without repeating a finished block",
    ),
    async () => {
      const database = await createTestDatabase();
      const dataDir = tempDir();
      let web: WebProcess | undefined;
      try {
        const url = database.url!;
        const workspaceId = await database.createWorkspace();
        const workflow = await database.repositories.workflows.create(workspaceId, fastSlowDocument());
        const env = { DATABASE_URL: url, DATA_DIR: dataDir, ...modelEnv(llm) };
        const spawnedAt = Date.now();
        const workerA = spawnWorker("A", env);
        const idA = await workerA.ready;
        const startUp = Date.now() - spawnedAt;
        web = await startWebProcess({ repositories: database.repositories, llm, url, singleProcess: false });

        const markers = [1, 2, 3].map(markerOf);
        const started = await Promise.all(
          markers.map((marker) => web!.runtime.runs.start(workspaceId, workflow.id, { marker })),
        );
        await waitFor(
          "every run's SLOW call in flight",
          () => markers.every((marker) => requestsWith(llm, `SLOW ${marker}`) === 1),
          30_000,
        );
        for (const { runId } of started)
          expect((await database.repositories.runs.get(workspaceId, runId)).worker).toBe(idA);
        await settle();

        const killedAt = Date.now();
        await workerA.kill("SIGKILL");
        const workerB = spawnWorker("B", env);
        const idB = await workerB.ready;
        const readyAfter = Date.now() - killedAt;
        const ended: RunRecord[] = await Promise.all(started.map((run) => run.done));
        const endedAfter = Date.now() - killedAt;
        expect(ended.map((run) => run.status)).toEqual(["succeeded", "succeeded", "succeeded"]);

        const takeovers = await expectRecovered({
          repositories: database.repositories,
          endpoints: web.endpoints,
          llm,
          workspaceId,
          runIds: started.map((run) => run.runId),
          markers,
          deadWorker: idA,
          newWorker: idB,
          killedAt,
        });
        expect(storageTrouble(workerA.log())).toEqual([]);
        expect(storageTrouble(workerB.log())).toEqual([]);
        console.info(
          `[durable] PostgreSQL kill -9: worker A started in ${startUp} ms; worker B ready ${readyAfter} ms after the kill; kill -> run.resumed ${JSON.stringify(figures(takeovers))} ms ` +
            `(lease ${LEASE_MS} ms); every run ended ${endedAfter} ms after the kill`,
        );
      } finally {
        await web?.stop();
        await killAllWorkers();
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it.skipIf(onPostgres)(
    embeddedOnly("embedded: the process that opens the data directory after the kill resumes every run"),
    async () => {
      const dataDir = tempDir();
      const databaseDir = path.join(dataDir, "pglite");
      const secretKey = () => loadSecretKey({ dataDir });
      let reopened: ReturnType<typeof createPrisma> | undefined;
      let stopWorkers: (() => Promise<void>) | undefined;
      let errors: CapturedLogs | undefined;
      try {
        const begin = Date.now();
        await migrateDatabase({ kind: "embedded", dataDir, databaseDir });
        // A web process stores three runs and hands them over, then stops (and frees the data directory).
        const first = createPrisma({ kind: "embedded", databaseDir });
        const markers = [1, 2, 3].map(markerOf);
        let workspaceId = "";
        const runIds: string[] = [];
        try {
          await first.ready;
          const repositories = createRepositories(first.prisma, { secretKey });
          workspaceId = (await first.prisma.workspace.create({ data: { name: "Durable" } })).id;
          const workflow = await repositories.workflows.create(workspaceId, fastSlowDocument());
          const web = await startWebProcess({ repositories, llm, url: first.url!, singleProcess: true });
          try {
            for (const marker of markers) {
              const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
              // Nobody waits here: this process stops and closes the database before the run ends.
              live.done.catch(() => {});
              runIds.push(live.runId);
            }
          } finally {
            await web.stop();
          }
        } finally {
          await first.close();
        }

        const preparedAfter = Date.now() - begin;
        const workerA = spawnWorker("A", { DATA_DIR: dataDir, ...modelEnv(llm) });
        const idA = await workerA.ready;
        const startUp = Date.now() - begin - preparedAfter;
        await waitFor(
          "every run's SLOW call in flight",
          () => markers.every((marker) => requestsWith(llm, `SLOW ${marker}`) === 1),
          30_000,
        );
        await settle();
        const killedAt = Date.now();
        await workerA.kill("SIGKILL");

        // This process comes back on the same data directory.
        errors = captureLogs();
        reopened = createPrisma({ kind: "embedded", databaseDir });
        await reopened.ready;
        const repositories = createRepositories(reopened.prisma, { secretKey });
        const runtime = testRuntime(repositories, llm);
        const workers = await startRunWorkers({
          runs: runtime.runs,
          repositories,
          config: testWorkerConfig(),
          url: reopened.url!,
          singleProcess: true,
        });
        stopWorkers = () => workers.stop();
        const readyAfter = Date.now() - killedAt;
        for (const runId of runIds) await waitForEnd(repositories, workspaceId, runId);
        const endedAfter = Date.now() - killedAt;

        const takeovers = await expectRecovered({
          repositories,
          endpoints: runEndpoints(() => ({ runs: runtime.runs, repositories })),
          llm,
          workspaceId,
          runIds,
          markers,
          deadWorker: idA,
          newWorker: workers.workerId,
          killedAt,
        });
        expect(storageTrouble(workerA.log())).toEqual([]);
        expect(storageTrouble(errors.errors().join("\n"))).toEqual([]);
        console.info(
          `[durable] embedded kill -9: data directory migrated and three runs handed over in ${preparedAfter} ms; worker A started in ${startUp} ms; ` +
            `data directory reopened and workers started ${readyAfter} ms after the kill; ` +
            `kill -> run.resumed ${JSON.stringify(figures(takeovers))} ms; every run ended ${endedAfter} ms after the kill`,
        );
      } finally {
        errors?.stop();
        await stopWorkers?.();
        await killAllWorkers();
        await reopened?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});

describe.skipIf(!onPostgres)(postgresOnly("worker processes sharing one PostgreSQL"), () => {
  let database: TestDatabase;
  let llm: TestLlmServer;
  let dataDir: string;
  let env: Record<string, string>;
  let web: WebProcess;
  let workers: WorkerProcess[];
  let workerIds: string[];
  let workspaceId: string;
  const plans = new Map<string, SlowPlan>();

  beforeAll(async () => {
    database = await createTestDatabase();
    llm = await startTestLlmServer({ defaultResponder: durableResponder(plans) });
    dataDir = tempDir();
    env = { DATABASE_URL: database.url!, DATA_DIR: dataDir, ...modelEnv(llm) };
    workers = [spawnWorker("W1", env), spawnWorker("W2", env)];
    workerIds = await Promise.all(workers.map((worker) => worker.ready));
    web = await startWebProcess({ repositories: database.repositories, llm, url: database.url!, singleProcess: false });
    workspaceId = await database.createWorkspace();
  }, 60_000);

  afterAll(async () => {
    await web?.stop();
    await killAllWorkers();
    await llm?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("two workers drain 200 queued runs: each runs once, and both take a share", async () => {
    const workflow = await database.repositories.workflows.create(workspaceId, twoBlockDocument());
    const begin = Date.now();
    const started = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        web.runtime.runs.start(workspaceId, workflow.id, { marker: `burst-${index}` }),
      ),
    );
    const storedAfter = Date.now() - begin;
    const ended = await Promise.all(started.map((run) => run.done));
    const drainedAfter = Date.now() - begin;

    expect(ended.filter((run) => run.status !== "succeeded").map((run) => [run.id, run.status, run.error])).toEqual([]);
    expect(ended.map((run) => run.output)).toEqual(started.map((_, index) => ({ marker: `burst-${index}` })));
    for (const run of ended) {
      const types = (await contiguousEvents(database.repositories, run.id)).map((event) => event.type);
      expect(
        types.filter((type) => type === "run.started"),
        `run.started of ${run.id}`,
      ).toHaveLength(1);
      expect(types).not.toContain("run.resumed");
      expect(types.at(-1)).toBe("run.completed");
      expect(run.recoveries).toBe(0);
    }
    const share = workerIds.map((id) => ended.filter((run) => run.worker === id).length);
    expect(share[0]! + share[1]!).toBe(200);
    expect(share[0]).toBeGreaterThan(0);
    expect(share[1]).toBeGreaterThan(0);
    for (const worker of workers) expect(storageTrouble(worker.log())).toEqual([]);
    const waits = ended.map((run) => Date.parse(run.startedAt) - Date.parse(run.queuedAt));
    console.info(
      `[durable] 200 runs over 2 worker processes: stored and handed over in ${storedAfter} ms, all ended after ${drainedAfter} ms ` +
        `(${Math.round((200 * 1000) / drainedAfter)} runs/s); split ${share.join(" / ")}; queue wait ${JSON.stringify(figures(waits))} ms`,
    );
  });

  it("cancel sent to the web process stops a run executing in a worker within a second", async () => {
    const workflow = await database.repositories.workflows.create(workspaceId, fastSlowDocument());
    const marker = markerOf(0);
    plans.set(marker, { chunks: 30, delayMs: 500 });
    const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
    await waitFor("the SLOW call in flight", () => requestsWith(llm, `SLOW ${marker}`) === 1, 30_000);
    const executing = await database.repositories.runs.get(workspaceId, live.runId);
    expect(executing.status).toBe("running");
    expect(workerIds).toContain(executing.worker);

    const streamed = readStream(web.endpoints, workspaceId, live.runId).then((events) => ({ events, at: Date.now() }));
    // The stream is open and following the run from storage before the cancel goes out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancelledAt = Date.now();
    await web.runtime.runs.cancel(workspaceId, live.runId);
    const done = await live.done;
    const doneAfter = Date.now() - cancelledAt;
    const { events, at } = await streamed;
    const streamEndedAfter = at - cancelledAt;

    expect(done.status).toBe("cancelled");
    expect(events.at(-1)?.event).toBe("run.cancelled");
    expect(streamEndedAfter).toBeLessThan(1_000);
    expect(doneAfter).toBeLessThan(1_000);
    const run = await database.repositories.runs.get(workspaceId, live.runId);
    expect(run.status).toBe("cancelled");
    expect(run.durationMs).not.toBeNull();
    expect((await contiguousEvents(database.repositories, live.runId)).at(-1)?.type).toBe("run.cancelled");
    expectNoSpanRunning(await database.repositories.spans.listByRun(live.runId), live.runId);
    console.info(
      `[durable] cancel through the web process: stream ended ${streamEndedAfter} ms and the run was stored cancelled ${doneAfter} ms after the cancel`,
    );
  });

  it("a process starting up does not touch a run a live process executes", async () => {
    const workflow = await database.repositories.workflows.create(workspaceId, fastSlowDocument());
    const marker = markerOf(0);
    plans.set(marker, { chunks: 18, delayMs: 1_000 });
    const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
    await waitFor("the SLOW call in flight", () => requestsWith(llm, `SLOW ${marker}`) === 1, 30_000);
    const owner = (await database.repositories.runs.get(workspaceId, live.runId)).worker;
    expect(workerIds).toContain(owner);

    const newcomer = spawnWorker("W3", env);
    const spawnedAt = Date.now();
    await newcomer.ready;
    const readyAfter = Date.now() - spawnedAt;
    // Three lease periods: the newcomer's start-up and nine of its sweeps.
    const watchUntil = Date.now() + 3 * LEASE_MS;
    while (Date.now() < watchUntil) {
      const run = await database.repositories.runs.get(workspaceId, live.runId);
      expect(run.status, "the run was still executing while the newcomer looked (make the SLOW answer longer?)").toBe(
        "running",
      );
      expect(run.worker).toBe(owner);
      expect(run.recoveries).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const stored = await database.repositories.runEvents.listAfter(live.runId, 0);
    expect(stored.map((item) => item.event.type)).not.toContain("run.resumed");

    const run = await live.done;
    expect(run.status).toBe("succeeded");
    expect(run.worker).toBe(owner);
    expect(run.recoveries).toBe(0);
    const types = (await contiguousEvents(database.repositories, live.runId)).map((event) => event.type);
    expect(types).not.toContain("run.resumed");
    expect(types.filter((type) => type === "run.started")).toHaveLength(1);
    expect(requestsWith(llm, `FAST ${marker}`)).toBe(1);
    expect(requestsWith(llm, `SLOW ${marker}`)).toBe(1);
    expect(new Set((await database.repositories.spans.listByRun(live.runId)).map((span) => span.worker))).toEqual(
      new Set([owner]),
    );
    expect(newcomer.log()).not.toMatch(/resuming/);
    expect(storageTrouble(newcomer.log())).toEqual([]);
    await newcomer.kill("SIGTERM");
    console.info(
      `[durable] a worker started beside a live one: ready in ${readyAfter} ms, left the run alone for ${3 * LEASE_MS} ms`,
    );
  }, 60_000);
});
