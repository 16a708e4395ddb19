import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, type CapturedLogs } from "@/lib/observability/__fixtures__/captured-logs";
import type { RunEvent, RunRecord } from "@/contract";
import { createPrisma, createRepositories, loadSecretKey, type Repositories } from "@/lib/db";
import { migrateDatabase } from "@/lib/db/migrate/apply-migrations.mjs";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { startRunWorkers } from "@/lib/runs/durable/run-workers";
import { workerConfigFrom } from "@/lib/runs/durable/worker-config";
import { approvalEndpoints } from "@/lib/runs/approval-endpoints";
import type { PendingApproval } from "@/lib/runs/approvals";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import type { RunService } from "@/lib/runs/run-service";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import {
  agentDocument,
  approvalDocument,
  calcAnswer,
  calcCallId,
  calculatorResponder,
  contiguousEvents,
  durableResponder,
  expectNoSpanRunning,
  killAllWorkers,
  modelEnv,
  readStream,
  spawnWorker,
  startWebProcess,
  storageTrouble,
  testRuntime,
  testWorkerConfig,
  waitFor,
  waitForEnd,
  type SlowPlan,
  type WebProcess,
} from "./__fixtures__/durable-kit";

/**
 * A tool call that needs a person parks its run: `paused`, held by no process. These tests stop
 * the process that parked it (SIGKILL, or a new RunService in the same process), answer the call
 * from another one, and check the run goes on where it stopped: the model is not asked its first
 * question again, the events stay one numbered stream, the trace has nothing left running, and
 * time spent waiting for the person is not part of the run's time limit.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const backend = onPostgres ? "PostgreSQL" : "the embedded database";
const postgresOnly = (name: string) =>
  onPostgres
    ? name
    : `${name} [skipped: several processes share one database only on PostgreSQL; the embedded database belongs to one process]`;
const embeddedOnly = (name: string) =>
  onPostgres ? `${name} [skipped: runs in the suite without DATABASE_URL]` : name;

/** The limit given to runs in the time-limit tests, and how long they stay parked there (longer than it). */
const RUN_LIMIT_MS = 3_000;
const PARKED_FOR_MS = 4_000;

let llm: TestLlmServer;
const plans = new Map<string, SlowPlan>();

beforeAll(async () => {
  llm = await startTestLlmServer({ defaultResponder: calculatorResponder(durableResponder(plans)) });
});
afterAll(async () => {
  await killAllWorkers();
  await llm?.close();
});

function tempDir(prefix = "trellis-approvals-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

const markerOf = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The requests the model got for a CALC run, oldest first. */
const calcRequests = (marker: string) =>
  llm.requests.filter((request) => request.parsed.userTexts.join("\n") === `CALC ${marker}`);

// ---------------------------------------------------------------------------------------------
// The approvals API as the web process serves it

interface ApprovalList {
  runId: string;
  status: string;
  approvals: PendingApproval[];
}

/** GET /api/runs/:id/approvals and POST /api/runs/:id/approvals/:toolCallId, served by `runs`. */
function approvalApi(runs: RunService, repositories: Repositories, workspaceId: string) {
  const endpoints = approvalEndpoints(() => ({ runs, repositories }));
  const member = testMember(workspaceId, "editor");
  return {
    async list(runId: string): Promise<ApprovalList> {
      const response = await endpoints.list(
        new Request(`http://localhost/api/runs/${runId}/approvals`),
        { id: runId },
        member,
      );
      expect(response.status).toBe(200);
      return (await response.json()) as ApprovalList;
    },
    decide(runId: string, toolCallId: string, decision: { approved: boolean; reason?: string }): Promise<Response> {
      return endpoints.decide(
        new Request(`http://localhost/api/runs/${runId}/approvals/${toolCallId}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(decision),
        }),
        { id: runId, toolCallId },
        member,
      );
    },
  };
}

/** The one call a CALC run waits on, as the list shows it. */
function expectWaitingCall(listed: ApprovalList, runId: string, marker: string): void {
  expect(listed).toMatchObject({ runId, status: "paused" });
  expect(listed.approvals).toHaveLength(1);
  expect(listed.approvals[0]).toMatchObject({
    runId,
    blockId: "agent",
    toolCallId: calcCallId(marker),
    toolName: "calculator",
    arguments: { expression: "6*7" },
  });
}

// ---------------------------------------------------------------------------------------------
// Parked

type Query = <Row>(sql: string, ...params: unknown[]) => Promise<Row[]>;

/**
 * Waits until the run is parked (paused, held by no process) and the queue has recorded the
 * attempt that parked it as finished: from then on the process that executed it holds nothing.
 */
async function waitParked(query: Query, runId: string, attemptId = runId): Promise<void> {
  await waitFor(
    `run ${runId} to park`,
    async () => {
      const [run] = await query<{ status: string; worker: string | null }>(
        "SELECT status, worker FROM runs WHERE id = $1",
        runId,
      );
      if (run?.status !== "paused" || run.worker !== null) return false;
      const [attempt] = await query<{ status: string }>(
        "SELECT status FROM dbos.workflow_status WHERE workflow_uuid = $1",
        attemptId,
      );
      return attempt?.status === "SUCCESS";
    },
    30_000,
  );
}

/** Waits until the run is parked, read through the repositories (runs executing at once, without the queue). */
async function waitParkedHere(repositories: Repositories, workspaceId: string, runId: string): Promise<RunRecord> {
  let run = await repositories.runs.get(workspaceId, runId);
  await waitFor(`run ${runId} to park`, async () => {
    run = await repositories.runs.get(workspaceId, runId);
    return run.status === "paused" && run.worker === null;
  });
  return run;
}

/** When the run parked, from its stored run.paused. */
async function pausedAtOf(repositories: Repositories, runId: string): Promise<number> {
  const paused = (await repositories.runEvents.listAfter(runId, 0))
    .map((item) => item.event)
    .find((event) => event.type === "run.paused");
  expect(paused, `run.paused of ${runId}`).toBeDefined();
  return Date.parse((paused as Extract<RunEvent, { type: "run.paused" }>).pausedAt);
}

/** The socket of the embedded database a worker child serves, found in the TMPDIR it was given. */
async function embeddedSocketUrl(tmp: string): Promise<string> {
  let dir: string | undefined;
  await waitFor(
    "the worker's database socket",
    () => {
      dir = readdirSync(tmp)
        .filter((name) => name.startsWith("trellis-db-"))
        .map((name) => path.join(tmp, name))
        .find((candidate) => existsSync(path.join(candidate, ".s.PGSQL.5432")));
      return dir !== undefined;
    },
    30_000,
  );
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(dir!)}`;
}

// ---------------------------------------------------------------------------------------------
// What a run answered after a restart shows

interface Answered {
  repositories: Repositories;
  endpoints: RunEndpoints;
  workspaceId: string;
  runId: string;
  marker: string;
  /** The process that executed the run until it parked. */
  parkedBy: string;
  /** The process that went on with it. */
  resumedBy: string;
  decidedAt: number;
}

/**
 * The run approved after a restart: it succeeded with the model's answer where the other process
 * left it, the model was asked the first question once and the second once, its events are one
 * numbered stream (parked, resolved, resumed), the tool ran once and nothing is left running.
 * Answers the figures: decision -> run.resumed and decision -> end.
 */
async function expectApprovedAfterRestart(answered: Answered): Promise<{ toResumed: number; toEnd: number }> {
  const { repositories, workspaceId, runId, marker, parkedBy, resumedBy, decidedAt } = answered;
  const run = await repositories.runs.get(workspaceId, runId);
  expect(run.status, `run ${marker}: ${JSON.stringify(run.error)}`).toBe("succeeded");
  expect(run.output).toEqual({ answer: calcAnswer(marker) });
  expect(run.worker).toBe(resumedBy);
  expect(run.recoveries).toBe(0);
  expect(run.endedAt).not.toBeNull();

  // The first question was answered from the agent's memo: the model saw it once, then the tool's result once.
  const asked = calcRequests(marker);
  expect(asked.map((request) => request.parsed.endsWithToolResult)).toEqual([false, true]);
  expect(asked[1]!.parsed.allText).toContain("42");

  const events = await contiguousEvents(repositories, runId);
  const types = events.map((event) => event.type);
  const milestones = [
    "run.started",
    "tool.approval.requested",
    "run.paused",
    "tool.approval.resolved",
    "run.resumed",
    "run.completed",
  ];
  expect(types.filter((type) => milestones.includes(type))).toEqual(milestones);
  expect(types.at(-1)).toBe("run.completed");
  const find = <T extends RunEvent["type"]>(type: T) =>
    events.find((event): event is Extract<RunEvent, { type: T }> => event.type === type)!;
  const requested = find("tool.approval.requested");
  expect(requested).toMatchObject({
    blockId: "agent",
    toolCallId: calcCallId(marker),
    toolName: "calculator",
    arguments: { expression: "6*7" },
  });
  expect(find("run.paused")).toMatchObject({
    reason: "approval",
    blockId: "agent",
    toolCallId: calcCallId(marker),
    spanId: requested.spanId,
  });
  expect(find("tool.approval.resolved")).toMatchObject({
    toolCallId: calcCallId(marker),
    toolName: "calculator",
    approved: true,
  });
  const resumed = find("run.resumed");
  expect(resumed).toMatchObject({ reason: "approved", worker: resumedBy });
  // The start block finished before the pause and was not run again.
  expect(events.filter((event) => event.type === "block.completed" && event.blockId === "start")).toHaveLength(1);
  expect(events.filter((event) => event.type === "block.completed" && event.blockId === "agent")).toHaveLength(1);

  // A client opening the stream now reads the same events under the same ids.
  const streamed = await readStream(answered.endpoints, workspaceId, runId);
  expect(streamed.map((event) => event.id)).toEqual(events.map((_, at) => at + 1));
  expect(streamed.map((event) => event.event)).toEqual(types);

  const spans = await repositories.spans.listByRun(runId);
  expectNoSpanRunning(spans, runId);
  // The call's span of the attempt that parked was cut short; the attempt that went on ran the tool.
  const tools = spans.filter((span) => span.kind === "tool");
  expect(tools.map((span) => [span.status, span.worker])).toEqual([
    ["cancelled", parkedBy],
    ["succeeded", resumedBy],
  ]);
  expect(tools[0]!.id).toBe(requested.spanId);
  expect(tools[1]!.output).toEqual({ expression: "6*7", result: 42 });
  const resumedAt = Date.parse(resumed.resumedAt);
  const later = spans.filter((span) => Date.parse(span.startedAt) >= resumedAt);
  expect(later.length).toBeGreaterThan(0);
  expect(new Set(later.map((span) => span.worker))).toEqual(new Set([resumedBy]));
  return { toResumed: resumedAt - decidedAt, toEnd: Date.parse(run.endedAt!) - decidedAt };
}

// ---------------------------------------------------------------------------------------------

describe("an approval answered after a restart resumes the run", () => {
  it.skipIf(!onPostgres)(
    postgresOnly("PostgreSQL: worker A parks the run and is killed; the web process approves; worker B finishes it"),
    async () => {
      const database = await createTestDatabase();
      const dataDir = tempDir();
      let web: WebProcess | undefined;
      try {
        const url = database.url!;
        const workspaceId = await database.createWorkspace();
        const workflow = await database.repositories.workflows.create(workspaceId, approvalDocument());
        const env = { DATABASE_URL: url, DATA_DIR: dataDir, ...modelEnv(llm) };
        const workerA = spawnWorker("A", env);
        const idA = await workerA.ready;
        web = await startWebProcess({ repositories: database.repositories, llm, url, singleProcess: false });

        const marker = markerOf("pg");
        const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
        const query: Query = (sql, ...params) => database.prisma.$queryRawUnsafe(sql, ...params);
        await waitParked(query, live.runId);
        expect(calcRequests(marker)).toHaveLength(1);

        // Worker A holds nothing now; it goes away all the same, and worker B comes up.
        const killedAt = Date.now();
        await workerA.kill("SIGKILL");
        const workerB = spawnWorker("B", env);
        const idB = await workerB.ready;
        const readyAfter = Date.now() - killedAt;
        const parked = await database.repositories.runs.get(workspaceId, live.runId);
        expect([parked.status, parked.worker]).toEqual(["paused", null]);

        // The web process (it executes nothing) lists the waiting call and approves it.
        const api = approvalApi(web.runtime.runs, database.repositories, workspaceId);
        expectWaitingCall(await api.list(live.runId), live.runId, marker);
        const decidedAt = Date.now();
        const response = await api.decide(live.runId, calcCallId(marker), { approved: true });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          runId: live.runId,
          toolCallId: calcCallId(marker),
          toolName: "calculator",
          approved: true,
        });
        const ended = await live.done;
        const seenEndedAfter = Date.now() - decidedAt;
        expect(ended.status).toBe("succeeded");

        const taken = await expectApprovedAfterRestart({
          repositories: database.repositories,
          endpoints: web.endpoints,
          workspaceId,
          runId: live.runId,
          marker,
          parkedBy: idA,
          resumedBy: idB,
          decidedAt,
        });
        expect(await web.runtime.runs.pendingApprovals(live.runId)).toEqual([]);
        expect(storageTrouble(workerA.log())).toEqual([]);
        expect(storageTrouble(workerB.log())).toEqual([]);
        console.info(
          `[approvals] PostgreSQL, approved after worker A was killed: worker B ready ${readyAfter} ms after the kill; ` +
            `decision -> run.resumed ${taken.toResumed} ms, decision -> run ended ${taken.toEnd} ms (the web process saw the end after ${seenEndedAfter} ms)`,
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

  it(
    embeddedOnly(
      "embedded: worker A parks the run and is killed; the process that opens the data directory next approves and finishes it",
    ),
    async () => {
      const dataDir = tempDir();
      // Worker A's TMPDIR: where it makes its database socket, which this test reads through until A is killed.
      const childTmp = tempDir("trellis-approvals-tmp-");
      const databaseDir = path.join(dataDir, "pglite");
      const secretKey = () => loadSecretKey({ dataDir });
      let reopened: ReturnType<typeof createPrisma> | undefined;
      let peek: pg.Client | undefined;
      let stopWorkers: (() => Promise<void>) | undefined;
      let errors: CapturedLogs | undefined;
      try {
        const begin = Date.now();
        await migrateDatabase({ kind: "embedded", dataDir, databaseDir });
        // A web process stores the run and hands it over, then stops (and frees the data directory).
        const first = createPrisma({ kind: "embedded", databaseDir });
        const marker = markerOf("embedded");
        let workspaceId = "";
        let runId = "";
        try {
          await first.ready;
          const repositories = createRepositories(first.prisma, { secretKey });
          workspaceId = (await first.prisma.workspace.create({ data: { name: "Approvals" } })).id;
          const workflow = await repositories.workflows.create(workspaceId, approvalDocument());
          const web = await startWebProcess({ repositories, llm, url: first.url!, singleProcess: true });
          try {
            runId = (await web.runtime.runs.start(workspaceId, workflow.id, { marker })).runId;
          } finally {
            await web.stop();
          }
        } finally {
          await first.close();
        }

        const spawnedAt = Date.now();
        const preparedIn = spawnedAt - begin;
        const workerA = spawnWorker("A", { DATA_DIR: dataDir, TMPDIR: childTmp, ...modelEnv(llm) });
        const idA = await workerA.ready;
        const startUp = Date.now() - spawnedAt;
        peek = new pg.Client({ connectionString: await embeddedSocketUrl(childTmp) });
        peek.on("error", () => {});
        await peek.connect();
        const client = peek;
        await waitParked(async (sql, ...params) => (await client.query(sql, params)).rows, runId);
        await peek.end();
        peek = undefined;
        const parkedAfter = Date.now() - spawnedAt - startUp;
        expect(calcRequests(marker)).toHaveLength(1);
        const killedAt = Date.now();
        await workerA.kill("SIGKILL");

        // This process comes back on the same data directory, as the only one.
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
        const parked = await repositories.runs.get(workspaceId, runId);
        expect([parked.status, parked.worker]).toEqual(["paused", null]);

        const api = approvalApi(runtime.runs, repositories, workspaceId);
        expectWaitingCall(await api.list(runId), runId, marker);
        const decidedAt = Date.now();
        const response = await api.decide(runId, calcCallId(marker), { approved: true });
        expect(response.status).toBe(200);
        await waitForEnd(repositories, workspaceId, runId);

        const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories }));
        const taken = await expectApprovedAfterRestart({
          repositories,
          endpoints,
          workspaceId,
          runId,
          marker,
          parkedBy: idA,
          resumedBy: workers.workerId,
          decidedAt,
        });
        expect(storageTrouble(workerA.log())).toEqual([]);
        expect(storageTrouble(errors.errors().join("\n"))).toEqual([]);
        console.info(
          `[approvals] embedded, approved after worker A was killed: data directory migrated and the run handed over in ${preparedIn} ms; ` +
            `worker A started in ${startUp} ms and parked the run ${parkedAfter} ms later; data directory reopened and workers started ${readyAfter} ms after the kill; ` +
            `decision -> run.resumed ${taken.toResumed} ms, decision -> run ended ${taken.toEnd} ms`,
        );
      } finally {
        errors?.stop();
        await peek?.end().catch(() => {});
        await stopWorkers?.();
        await killAllWorkers();
        await reopened?.close();
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(childTmp, { recursive: true, force: true });
      }
    },
    90_000,
  );
});

describe(`a parked run after its process restarted, in one process on ${backend}`, () => {
  let database: TestDatabase;
  let workspaceId: string;
  let approvalWorkflowId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    workspaceId = await database.createWorkspace();
    approvalWorkflowId = (await database.repositories.workflows.create(workspaceId, approvalDocument())).id;
  });
  afterAll(() => database?.close());

  /** Starts a CALC run in a process of its own (a RunService executing at once) and waits for it to park. */
  async function parkedRun(label: string, options: { runTimeoutMs?: number } = {}) {
    const marker = markerOf(label);
    const before = testRuntime(database.repositories, llm, options);
    const { runId } = await before.runs.start(workspaceId, approvalWorkflowId, { marker });
    await waitParkedHere(database.repositories, workspaceId, runId);
    expect(calcRequests(marker)).toHaveLength(1);
    return { marker, runId };
  }

  it("denied: the model gets the denial instead of the tool's result, and the run succeeds", async () => {
    const { marker, runId } = await parkedRun("denied");
    // The process restarts: a new RunService, knowing nothing of the run.
    const after = testRuntime(database.repositories, llm);
    const api = approvalApi(after.runs, database.repositories, workspaceId);
    expectWaitingCall(await api.list(runId), runId, marker);
    const decidedAt = Date.now();
    const response = await api.decide(runId, calcCallId(marker), { approved: false, reason: " not today " });
    expect(await response.json()).toMatchObject({ approved: false, reason: "not today" });
    const run = await waitForEnd(database.repositories, workspaceId, runId);
    const endedAfter = Date.now() - decidedAt;

    expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
    expect(run.output).toEqual({ answer: calcAnswer(marker) });
    const asked = calcRequests(marker);
    expect(asked.map((request) => request.parsed.endsWithToolResult)).toEqual([false, true]);
    expect(asked[1]!.parsed.allText).toContain("denied by a person: not today");
    const events = await contiguousEvents(database.repositories, runId);
    const types = events.map((event) => event.type);
    const milestones = [
      "run.started",
      "tool.approval.requested",
      "run.paused",
      "tool.approval.resolved",
      "run.resumed",
      "run.completed",
    ];
    expect(types.filter((type) => milestones.includes(type))).toEqual(milestones);
    expect(events.find((event) => event.type === "tool.approval.resolved")).toMatchObject({
      approved: false,
      reason: "not today",
    });
    const spans = await database.repositories.spans.listByRun(runId);
    expectNoSpanRunning(spans, runId);
    const tools = spans.filter((span) => span.kind === "tool");
    expect(tools.map((span) => [span.status, span.error?.code ?? null])).toEqual([
      ["cancelled", null],
      ["failed", "tool_denied"],
    ]);
    expect(tools[1]!.output).toBeUndefined();
    console.info(
      `[approvals] ${backend}, in one process: denied after a restart; the run ended ${endedAfter} ms after the decision`,
    );
  });

  it("cancelled while parked: the run ends cancelled, and a later decision is not found", async () => {
    const { marker, runId } = await parkedRun("cancelled");
    const after = testRuntime(database.repositories, llm);
    const api = approvalApi(after.runs, database.repositories, workspaceId);
    await after.runs.cancel(workspaceId, runId);

    const run = await database.repositories.runs.get(workspaceId, runId);
    expect(run.status).toBe("cancelled");
    expect(run.durationMs).not.toBeNull();
    const events = await contiguousEvents(database.repositories, runId);
    expect(events.at(-1)?.type).toBe("run.cancelled");
    expect(events.map((event) => event.type)).not.toContain("run.resumed");
    expectNoSpanRunning(await database.repositories.spans.listByRun(runId), runId);

    const late = await api.decide(runId, calcCallId(marker), { approved: true });
    expect(late.status).toBe(404);
    expect(((await late.json()) as { error: { message: string } }).error.message).toContain(
      `No tool call "${calcCallId(marker)}" is waiting for approval`,
    );
    expect((await api.list(runId)).approvals).toEqual([]);
    await sleep(200);
    expect(calcRequests(marker)).toHaveLength(1);
    expect((await database.repositories.runs.get(workspaceId, runId)).status).toBe("cancelled");
  });

  it(`the time limit (TRELLIS_RUN_TIMEOUT_MS=${RUN_LIMIT_MS}) does not count ${PARKED_FOR_MS} ms parked, while a run busy for longer times out`, async () => {
    const limitMs = workerConfigFrom((name) => ({ TRELLIS_RUN_TIMEOUT_MS: String(RUN_LIMIT_MS) })[name]).runTimeoutMs;
    expect(limitMs).toBe(RUN_LIMIT_MS);
    // Proof that the limit bites: a run busy for longer than it fails with `timeout`.
    const slowWorkflow = await database.repositories.workflows.create(workspaceId, agentDocument("SLOW"));
    const slowMarker = markerOf("slow");
    plans.set(slowMarker, { chunks: 10, delayMs: 500 });
    const busy = await testRuntime(database.repositories, llm, { runTimeoutMs: limitMs }).runs.start(
      workspaceId,
      slowWorkflow.id,
      { marker: slowMarker },
    );

    const { marker, runId } = await parkedRun("limit", { runTimeoutMs: limitMs });
    const pausedAt = await pausedAtOf(database.repositories, runId);
    const timedOut = await waitForEnd(database.repositories, workspaceId, busy.runId);
    expect([timedOut.status, timedOut.error?.code]).toEqual(["failed", "timeout"]);
    await sleep(pausedAt + PARKED_FOR_MS - Date.now());

    const after = testRuntime(database.repositories, llm, { runTimeoutMs: limitMs });
    const response = await approvalApi(after.runs, database.repositories, workspaceId).decide(
      runId,
      calcCallId(marker),
      { approved: true },
    );
    expect(response.status).toBe(200);
    const run = await waitForEnd(database.repositories, workspaceId, runId);
    expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
    expect(run.output).toEqual({ answer: calcAnswer(marker) });
    expect(run.durationMs).toBeGreaterThan(PARKED_FOR_MS);
    const types = (await contiguousEvents(database.repositories, runId)).map((event) => event.type);
    expect(types).not.toContain("run.failed");
    expect(types.at(-1)).toBe("run.completed");
    console.info(
      `[approvals] ${backend}, in one process: parked ${Date.now() - pausedAt} ms under a ${limitMs} ms limit and succeeded (run took ${run.durationMs} ms); ` +
        `the busy run timed out after ${timedOut.durationMs} ms`,
    );
  }, 30_000);
});

describe.skipIf(!onPostgres)(postgresOnly("the time limit of a worker process"), () => {
  it(`a worker started with TRELLIS_RUN_TIMEOUT_MS=${RUN_LIMIT_MS} does not count ${PARKED_FOR_MS} ms parked, while a run busy for longer times out`, async () => {
    const database = await createTestDatabase();
    const dataDir = tempDir();
    let web: WebProcess | undefined;
    try {
      const url = database.url!;
      const workspaceId = await database.createWorkspace();
      const workflow = await database.repositories.workflows.create(workspaceId, approvalDocument());
      const slowWorkflow = await database.repositories.workflows.create(workspaceId, agentDocument("SLOW"));
      const worker = spawnWorker("T", {
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        TRELLIS_RUN_TIMEOUT_MS: String(RUN_LIMIT_MS),
        ...modelEnv(llm),
      });
      const workerId = await worker.ready;
      web = await startWebProcess({ repositories: database.repositories, llm, url, singleProcess: false });

      const marker = markerOf("limit-pg");
      const slowMarker = markerOf("slow-pg");
      plans.set(slowMarker, { chunks: 10, delayMs: 500 });
      const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
      const busy = await web.runtime.runs.start(workspaceId, slowWorkflow.id, { marker: slowMarker });
      await waitParked((sql, ...params) => database.prisma.$queryRawUnsafe(sql, ...params), live.runId);
      const pausedAt = await pausedAtOf(database.repositories, live.runId);
      const timedOut = await busy.done;
      expect([timedOut.status, timedOut.error?.code]).toEqual(["failed", "timeout"]);
      await sleep(pausedAt + PARKED_FOR_MS - Date.now());

      const decidedAt = Date.now();
      const response = await approvalApi(web.runtime.runs, database.repositories, workspaceId).decide(
        live.runId,
        calcCallId(marker),
        { approved: true },
      );
      expect(response.status).toBe(200);
      const run = await live.done;
      expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
      expect(run.output).toEqual({ answer: calcAnswer(marker) });
      expect(run.worker).toBe(workerId);
      expect(run.durationMs).toBeGreaterThan(PARKED_FOR_MS);
      const events = await contiguousEvents(database.repositories, live.runId);
      expect(events.map((event) => event.type)).not.toContain("run.failed");
      expect(events.find((event) => event.type === "run.resumed")).toMatchObject({
        reason: "approved",
        worker: workerId,
      });
      expectNoSpanRunning(await database.repositories.spans.listByRun(live.runId), live.runId);
      expect(calcRequests(marker)).toHaveLength(2);
      expect(storageTrouble(worker.log())).toEqual([]);
      console.info(
        `[approvals] PostgreSQL worker process with a ${RUN_LIMIT_MS} ms limit: parked ${decidedAt - pausedAt} ms and succeeded ` +
          `(run took ${run.durationMs} ms, ended ${Date.parse(run.endedAt!) - decidedAt} ms after the decision); the busy run timed out after ${timedOut.durationMs} ms`,
      );
    } finally {
      await web?.stop();
      await killAllWorkers();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!onPostgres)(
  postgresOnly("a parked run whose worker died before the queue recorded its attempt finished"),
  () => {
    it("the attempt handed over again by the recovery sweep leaves the run parked; the decision resumes it once", async () => {
      const database = await createTestDatabase();
      const dataDir = tempDir();
      let web: WebProcess | undefined;
      try {
        const url = database.url!;
        const workspaceId = await database.createWorkspace();
        const workflow = await database.repositories.workflows.create(workspaceId, approvalDocument());
        const env = { DATABASE_URL: url, DATA_DIR: dataDir, ...modelEnv(llm) };
        const workerA = spawnWorker("A", env);
        const idA = await workerA.ready;
        web = await startWebProcess({ repositories: database.repositories, llm, url, singleProcess: false });
        const marker = markerOf("window");
        const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
        const query: Query = (sql, ...params) => database.prisma.$queryRawUnsafe(sql, ...params);
        await waitParked(query, live.runId);
        await workerA.kill("SIGKILL");
        // As if A had died between parking the run and the queue recording the attempt finished (a few milliseconds).
        await database.prisma.$executeRawUnsafe(
          "UPDATE dbos.workflow_status SET status = 'PENDING' WHERE workflow_uuid = $1 AND executor_id = $2",
          live.runId,
          idA,
        );
        const before = await database.repositories.runEvents.lastSeq(live.runId);

        const workerB = spawnWorker("B", env);
        const idB = await workerB.ready;
        // B finds A dead, hands A's attempt over again and executes it: it must find nothing to do.
        await waitFor(
          "worker B to take over worker A",
          () => workerB.log().includes(`resuming 1 run(s) of stopped process(es) ${idA}`),
          30_000,
        );
        await waitFor(
          "the attempt handed over again to finish",
          async () =>
            (
              await query<{ status: string }>(
                "SELECT status FROM dbos.workflow_status WHERE workflow_uuid = $1",
                live.runId,
              )
            )[0]?.status === "SUCCESS",
          30_000,
        );
        const parked = await database.repositories.runs.get(workspaceId, live.runId);
        expect([parked.status, parked.worker, parked.recoveries]).toEqual(["paused", null, 0]);
        expect(await database.repositories.runEvents.lastSeq(live.runId)).toBe(before);
        const api = approvalApi(web.runtime.runs, database.repositories, workspaceId);
        expectWaitingCall(await api.list(live.runId), live.runId, marker);

        const decidedAt = Date.now();
        expect((await api.decide(live.runId, calcCallId(marker), { approved: true })).status).toBe(200);
        expect((await live.done).status).toBe("succeeded");
        await expectApprovedAfterRestart({
          repositories: database.repositories,
          endpoints: web.endpoints,
          workspaceId,
          runId: live.runId,
          marker,
          parkedBy: idA,
          resumedBy: idB,
          decidedAt,
        });
        expect(storageTrouble(workerB.log())).toEqual([]);
      } finally {
        await web?.stop();
        await killAllWorkers();
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);
  },
);
