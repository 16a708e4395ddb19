import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { startRunWorkers, type RunWorkers } from "@/lib/runs/durable/run-workers";
import type { LiveRun } from "@/lib/runs/run-service";
import type { Runtime } from "@/lib/runtime/runtime";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import {
  agentDocument,
  durableResponder,
  testRuntime,
  testWorkerConfig,
  waitFor,
  waitForEnd,
  type SlowPlan,
} from "./__fixtures__/durable-kit";

/**
 * The limits of section 11 as a user meets them: a workspace may execute so many runs at once
 * (the others wait `queued`, with their place in line), another workspace's run does not wait
 * behind that flood, and a workflow's own time limit (settings.timeoutMs) ends a run that
 * outlasts it. One process, on whichever database the suite runs on; DBOS is launched once here.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
let database: TestDatabase;
let llm: TestLlmServer;
let runtime: Runtime;
let workers: RunWorkers;
const plans = new Map<string, SlowPlan>();

beforeAll(async () => {
  database = await createTestDatabase({ serve: true });
  llm = await startTestLlmServer({ defaultResponder: durableResponder(plans) });
  runtime = testRuntime(database.repositories, llm);
  const config = testWorkerConfig();
  workers = await startRunWorkers({
    runs: runtime.runs,
    repositories: database.repositories,
    config: { ...config, limits: { ...config.limits, perProcess: 8, perWorkspace: 1 } },
    url: database.url!,
    singleProcess: !onPostgres,
  });
}, 60_000);

afterAll(async () => {
  await workers?.stop();
  await llm?.close();
  await database?.close();
});

function overlaps(a: RunRecord, b: RunRecord): boolean {
  return Date.parse(a.startedAt) < Date.parse(b.endedAt!) && Date.parse(b.startedAt) < Date.parse(a.endedAt!);
}

describe("limits", () => {
  it("runs one workspace's runs within its limit, queued in line meanwhile, while another workspace's run goes ahead", async () => {
    const flood = await database.createWorkspace("Flood");
    const other = await database.createWorkspace("Other");
    const floodFlow = (await database.repositories.workflows.create(flood, agentDocument("SLOW"))).id;
    const otherFlow = (await database.repositories.workflows.create(other, agentDocument("FAST"))).id;
    const markers = Array.from({ length: 3 }, () => randomUUID().slice(0, 8));
    for (const marker of markers) plans.set(marker, { chunks: 2, delayMs: 300 });

    const started: LiveRun[] = [];
    for (const marker of markers) started.push(await runtime.runs.start(flood, floodFlow, { marker }));
    await waitFor(
      "the first run to start",
      async () => (await database.repositories.runs.get(flood, started[0]!.runId)).status === "running",
    );
    // The others wait their turn, and say where they stand.
    const waiting = await database.repositories.runs.get(flood, started[2]!.runId);
    expect(waiting.status).toBe("queued");
    expect(await database.repositories.runs.queuePosition(started[2]!.runId)).toBeGreaterThanOrEqual(1);

    const quick = await runtime.runs.start(other, otherFlow, { marker: "other" });
    const quickRun = await quick.done;
    expect(quickRun.status).toBe("succeeded");
    const floodRuns = await Promise.all(started.map((live) => waitForEnd(database.repositories, flood, live.runId)));
    expect(floodRuns.map((run) => run.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    // Never two of the flood's runs at once.
    for (const [index, run] of floodRuns.entries())
      for (const later of floodRuns.slice(index + 1)) expect(overlaps(run, later)).toBe(false);
    // The other workspace did not wait for the flood to drain.
    expect(Date.parse(quickRun.endedAt!)).toBeLessThan(Date.parse(floodRuns[2]!.startedAt));
  }, 60_000);

  it("ends a run that outlasts its workflow's time limit, whatever the server's default", async () => {
    const workspaceId = await database.createWorkspace("Timed");
    const document = { ...agentDocument("SLOW"), settings: { timeoutMs: 1_000 } };
    const stored = await database.repositories.workflows.create(workspaceId, document);
    expect(stored.settings).toEqual({ timeoutMs: 1_000 });
    const marker = randomUUID().slice(0, 8);
    plans.set(marker, { chunks: 10, delayMs: 500 });
    const run = await (await runtime.runs.start(workspaceId, stored.id, { marker })).done;
    expect(run.status).toBe("failed");
    expect(run.error?.code).toBe("timeout");
    expect(run.error?.message).toContain("1000 ms");
    expect(run.durationMs).toBeLessThan(4_000);
  }, 30_000);
});
