import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import {
  durableResponder,
  killAllWorkers,
  modelEnv,
  spawnWorker,
  storageTrouble,
  twoBlockDocument,
  waitFor,
  type WorkerProcess,
} from "@/lib/runs/durable/__fixtures__/durable-kit";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { ScheduleRepository } from "./schedule-repository";

/**
 * A schedule fired by real `npm run worker` processes sharing one PostgreSQL database: every
 * process runs the scheduler and wakes at the same fire times, and each time must run once.
 * Several processes share a database only on PostgreSQL; the embedded database belongs to one.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const postgresOnly = (name: string) =>
  onPostgres
    ? name
    : `${name} [skipped: several processes share one database only on PostgreSQL; the embedded database belongs to one process]`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whole seconds (fire times of `* * * * * *`) after `from` up to and including `to`. */
const secondsBetween = (from: number, to: number) => Math.floor(to / 1_000) - Math.floor(from / 1_000);

describe.skipIf(!onPostgres)(postgresOnly("a schedule of every second over two worker processes"), () => {
  let database: TestDatabase;
  let llm: TestLlmServer;
  let dataDir: string;
  let workers: WorkerProcess[];
  let workerIds: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    llm = await startTestLlmServer({ defaultResponder: durableResponder() });
    dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-schedules-"));
    const env = { DATABASE_URL: database.url!, DATA_DIR: dataDir, ...modelEnv(llm) };
    workers = [spawnWorker("S1", env), spawnWorker("S2", env)];
    workerIds = await Promise.all(workers.map((worker) => worker.ready));
  }, 60_000);

  afterAll(async () => {
    await killAllWorkers();
    await llm?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("fires once per second for five seconds: the expected number of runs, none doubled, none skipped", async () => {
    const workspaceId = await database.createWorkspace();
    const document = twoBlockDocument();
    const workflow = await database.repositories.workflows.create(workspaceId, document);
    const deployment = await database.repositories.deployments.create(workspaceId, workflow.id, {
      document,
      workflowVersion: 1,
      note: "",
      createdById: null,
    });
    const schedules = new ScheduleRepository(database.prisma);

    const schedule = await schedules.create(workspaceId, workflow.id, {
      cron: "* * * * * *",
      timezone: "UTC",
      input: { marker: "tick" },
    });
    const createdAt = Date.parse(schedule.createdAt);
    await sleep(5_000);
    const pauseSent = Date.now();
    await schedules.setPaused(workspaceId, schedule.id, true);
    const pauseStored = Date.now();

    const fires = async () =>
      database.prisma.scheduleFire.findMany({ where: { scheduleId: schedule.id }, orderBy: { fireAt: "asc" } });
    await waitFor(
      "every fire's run recorded",
      async () => (await fires()).every((fire) => fire.runId !== null || fire.error !== null),
      10_000,
    );
    await sleep(1_500);
    const fired = await fires();

    // The expected count, give or take the fire time in flight as the pause was stored, and one more
    // that a worker slowed by a loaded machine (CI runs the suite in parallel) had not claimed by then.
    expect(fired.length).toBeGreaterThanOrEqual(secondsBetween(createdAt, pauseSent) - 2);
    expect(fired.length).toBeLessThanOrEqual(secondsBetween(createdAt, pauseStored));
    expect(fired.length).toBeGreaterThanOrEqual(3);
    // Consecutive seconds: none skipped, none missed, and each fire started a run.
    const times = fired.map((fire) => fire.fireAt.getTime());
    expect(times.slice(1).map((time, index) => time - times[index]!)).toEqual(times.slice(1).map(() => 1_000));
    expect(times[0]! - createdAt).toBeLessThanOrEqual(1_000);
    expect(fired.filter((fire) => fire.missed || fire.error !== null || fire.runId === null)).toEqual([]);

    // No fire time with two runs: exactly one run per fire, and every run of the schedule is a fire's.
    const runs = await database.prisma.run.findMany({ where: { scheduleId: schedule.id }, select: { id: true } });
    expect(runs.length).toBe(fired.length);
    expect(new Set(runs.map((run) => run.id))).toEqual(new Set(fired.map((fire) => fire.runId)));

    // The runs ran the deployment, in the worker processes.
    await waitFor(
      "the scheduled runs to end",
      async () =>
        (await database.prisma.run.count({
          where: { scheduleId: schedule.id, status: { in: ["queued", "running"] } },
        })) === 0,
      20_000,
    );
    for (const fire of fired) {
      const run = await database.repositories.runs.get(workspaceId, fire.runId!);
      expect(run).toMatchObject({
        status: "succeeded",
        output: { marker: "tick" },
        deploymentId: deployment.id,
        trigger: { kind: "schedule", scheduleId: schedule.id },
      });
      expect(workerIds).toContain(run.worker);
    }
    const claimedBy = workerIds.map((id) => fired.filter((fire) => fire.claimedBy === id).length);
    expect(claimedBy[0]! + claimedBy[1]!).toBe(fired.length);
    for (const worker of workers) expect(storageTrouble(worker.log())).toEqual([]);
    const lateness = fired.map((fire) => fire.claimedAt.getTime() - fire.fireAt.getTime());
    console.info(
      `[schedules] ${fired.length} fires in ${((pauseSent - createdAt) / 1_000).toFixed(1)} s over 2 worker processes, claimed ${claimedBy.join(" / ")}; ` +
        `claimed ${Math.min(...lateness)} to ${Math.max(...lateness)} ms after the fire time`,
    );
  }, 60_000);
});
