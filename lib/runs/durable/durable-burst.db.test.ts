import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, type CapturedLogs } from "@/lib/observability/__fixtures__/captured-logs";
import type { RunEvent, RunStatus, SpanRecord } from "@/contract";
import type { BlockCheckpoint } from "@/executor";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { MAX_RECOVERIES, startRunWorkers, type RunWorkers } from "@/lib/runs/durable/run-workers";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import type { Runtime } from "@/lib/runtime/runtime";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import {
  agentDocument,
  contiguousEvents,
  durableResponder,
  ENDED,
  expectNoSpanRunning,
  fastSlowDocument,
  figures,
  readStream,
  requestsWith,
  retryDocument,
  storageTrouble,
  testRuntime,
  testWorkerConfig,
  waitFor,
  waitForEnd,
  type SlowPlan,
} from "./__fixtures__/durable-kit";

/**
 * Durable runs inside one process, on whichever database the suite runs on (PostgreSQL with
 * DATABASE_URL, else the embedded one, served as the app serves it): a burst of background runs
 * stored and executed through the durable queue, and every way a run can end leaving a whole
 * record (docs/CONTRACT.md sections 5, 6 and 11). DBOS is launched once in this file.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const backend = onPostgres ? "PostgreSQL" : "the embedded database";

let database: TestDatabase;
let llm: TestLlmServer;
let runtime: Runtime;
let workers: RunWorkers;
let endpoints: RunEndpoints;
let workspaceId: string;
let logs: CapturedLogs;
const plans = new Map<string, SlowPlan>();

/** What was logged as an error so far, one line per call. */
const loggedErrors = () => logs.errors();

beforeAll(async () => {
  // Spied on from the start, so that anything logged while runs execute counts.
  logs = captureLogs();
  database = await createTestDatabase({ serve: true });
  llm = await startTestLlmServer({ defaultResponder: durableResponder(plans) });
  runtime = testRuntime(database.repositories, llm);
  workers = await startRunWorkers({
    runs: runtime.runs,
    repositories: database.repositories,
    config: testWorkerConfig(),
    url: database.url!,
    singleProcess: !onPostgres,
  });
  endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
  workspaceId = await database.createWorkspace();
}, 60_000);

afterAll(async () => {
  await workers?.stop();
  await llm?.close();
  await database?.close();
  logs?.stop();
});

describe(`a burst of background runs on ${backend}`, () => {
  it("200 runs started without waiting all succeed, with every span ended and agreeing with the event stream, and no storage failure logged", async () => {
    const workflow = await database.repositories.workflows.create(workspaceId, agentDocument());
    const begin = Date.now();
    // 202-style: each start returns once the run is stored and handed to the queue.
    const accepted = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        runtime.runs.start(workspaceId, workflow.id, { marker: `burst-${index}` }),
      ),
    );
    const acceptedAfter = Date.now() - begin;
    const ended = () => database.prisma.run.count({ where: { workflowId: workflow.id, status: { in: [...ENDED] } } });
    await waitFor("all 200 runs to end", async () => (await ended()) === 200, 60_000, 100);
    const endedAfter = Date.now() - begin;

    const waits: number[] = [];
    for (const [index, { runId }] of accepted.entries()) {
      const run = await database.repositories.runs.getWithSpans(workspaceId, runId);
      expect(run.status, `run ${index}: ${JSON.stringify(run.error)}`).toBe("succeeded");
      expect(run.output).toEqual({ answer: `Echo: Echo burst-${index}` });
      expectDuration(run);
      waits.push(Date.parse(run.startedAt) - Date.parse(run.queuedAt));
      expectNoSpanRunning(run.spans, runId);
      const events = await contiguousEvents(database.repositories, runId);
      expect(events.map((event) => event.type).filter((type) => type === "run.started")).toHaveLength(1);
      expect(events.at(-1)?.type).toBe("run.completed");
      expectSpansAgreeWithEvents(run.spans, events);
    }
    expect(requestsWith(llm, "Echo burst-0")).toBe(1);
    expect(
      llm.requests.filter((request) => request.parsed.userTexts.join("\n").startsWith("Echo burst-")),
    ).toHaveLength(200);
    expect(loggedErrors()).toEqual([]);
    console.info(
      `[durable] 200 background runs in one process on ${backend}: accepted in ${acceptedAfter} ms, all ended after ${endedAfter} ms ` +
        `(${Math.round((200 * 1000) / endedAfter)} runs/s); queue wait ${JSON.stringify(figures(waits))} ms`,
    );
  }, 90_000);
});

/** The run has an end, and its duration is the time from its start to it (to the millisecond it is stored in). */
function expectDuration(run: {
  id: string;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
}): void {
  expect(run.endedAt, `endedAt of ${run.id}`).not.toBeNull();
  expect(run.durationMs, `durationMs of ${run.id}`).not.toBeNull();
  expect(
    Math.abs(run.durationMs! - (Date.parse(run.endedAt!) - Date.parse(run.startedAt))),
    `durationMs of ${run.id} against its start and end`,
  ).toBeLessThanOrEqual(1);
}

/** Each block.completed's span is stored succeeded with the same output and tokens; each block.started's span exists. */
function expectSpansAgreeWithEvents(spans: readonly SpanRecord[], events: readonly RunEvent[]): void {
  const byId = new Map(spans.map((span) => [span.id, span]));
  for (const event of events) {
    if (event.type === "block.started") expect(byId.get(event.spanId)?.blockId).toBe(event.blockId);
    if (event.type !== "block.completed") continue;
    const span = byId.get(event.spanId);
    expect(span, `span ${event.spanId} of block ${event.blockId}`).toBeDefined();
    expect(span!.status).toBe("succeeded");
    expect(span!.blockId).toBe(event.blockId);
    expect(span!.output).toEqual(event.output);
    expect(span!.usage?.tokens).toEqual(event.tokens);
  }
  // The agent's tokens are real, so the comparison above compared something.
  const agent = events.find(
    (event): event is Extract<RunEvent, { type: "block.completed" }> =>
      event.type === "block.completed" && event.blockId === "agent",
  );
  expect(agent?.tokens?.total).toBeGreaterThan(0);
}

describe(`a run that ends for any reason has a terminal event, a duration and no span left running (${backend})`, () => {
  /** What every ended run shows, whatever ended it; answers its stored events. */
  async function expectEndedWhole(runId: string, status: RunStatus): Promise<RunEvent[]> {
    const run = await database.repositories.runs.get(workspaceId, runId);
    expect(run.status).toBe(status);
    expectDuration(run);
    const events = await contiguousEvents(database.repositories, runId);
    const terminal = { succeeded: "run.completed", failed: "run.failed", cancelled: "run.cancelled" }[
      status as "succeeded" | "failed" | "cancelled"
    ];
    expect(events.at(-1)?.type).toBe(terminal);
    expect(
      events.filter(
        (event) => event.type === "run.completed" || event.type === "run.failed" || event.type === "run.cancelled",
      ),
    ).toHaveLength(1);
    expectNoSpanRunning(await database.repositories.spans.listByRun(runId), runId);
    // A client opening the stream now gets every event and an end.
    const streamed = await readStream(endpoints, workspaceId, runId);
    expect(streamed.map((event) => event.event)).toEqual(events.map((event) => event.type));
    return events;
  }

  it("a run executed at once by a process that died mid-way (no queue attempt of it anywhere) is resumed through the queue from where it was", async () => {
    const document = agentDocument();
    const workflow = await database.repositories.workflows.create(workspaceId, document);
    const marker = `at-once-${randomUUID().slice(0, 8)}`;
    const dead = `dead-${randomUUID().slice(0, 8)}`;
    const startedAt = new Date(Date.now() - 2_000);
    // As a process leaves a run it started at once: stored running under its id, its first block under way, and DBOS knowing nothing of it.
    const run = await database.repositories.runs.create({
      workspaceId,
      workflowId: workflow.id,
      status: "running",
      input: { marker },
      document,
      worker: dead,
      startedAt,
    });
    const blockSpan: SpanRecord = {
      id: randomUUID(),
      runId: run.id,
      parentId: null,
      kind: "block",
      blockId: "agent",
      blockName: "Agent",
      blockType: "agent",
      status: "running",
      startedAt: new Date(startedAt.getTime() + 100).toISOString(),
      worker: dead,
    };
    await database.repositories.runWriter.write({ runId: run.id, spans: [blockSpan] });
    await database.repositories.runEvents.append(run.id, [
      {
        seq: 1,
        event: { type: "run.started", runId: run.id, workflowId: workflow.id, startedAt: startedAt.toISOString() },
      },
      {
        seq: 2,
        event: {
          type: "block.started",
          runId: run.id,
          blockId: "agent",
          blockName: "Agent",
          blockType: "agent",
          spanId: blockSpan.id,
          startedAt: blockSpan.startedAt,
        },
      },
    ]);
    await database.prisma.worker.create({
      data: { id: dead, host: "gone", pid: 999_999, startedAt, heartbeatAt: new Date(Date.now() - 60_000) },
    });

    await workers.sweep();

    const ended = await waitForEnd(database.repositories, workspaceId, run.id);
    const events = await expectEndedWhole(run.id, "succeeded");
    expect(ended.recoveries).toBe(1);
    expect(ended.worker).toBe(workers.workerId);
    // The block the dead process left running is closed, then runs again in the new attempt.
    expect(events.slice(0, 4).map((event) => event.type)).toEqual([
      "run.started",
      "block.started",
      "block.failed",
      "run.resumed",
    ]);
    expect(
      events.filter((event) => event.type === "block.completed").map((event) => (event as { blockId: string }).blockId),
    ).toContain("agent");
    expect(events.find((event) => event.type === "run.resumed")).toMatchObject({ reason: "recovered" });
    expect(requestsWith(llm, `Echo ${marker}`)).toBe(1);
  });

  it("a run whose process died inside a retry cycle goes on with the next pass: the first pass is restored from its checkpoints, not run again", async () => {
    const document = retryDocument();
    const workflow = await database.repositories.workflows.create(workspaceId, document);
    const dead = `dead-${randomUUID().slice(0, 8)}`;
    const startedAt = new Date(Date.now() - 2_000);
    const run = await database.repositories.runs.create({
      workspaceId,
      workflowId: workflow.id,
      status: "running",
      input: { marker: "var x = 1" },
      document,
      worker: dead,
      startedAt,
    });
    // As the dead process left it: the first pass finished (Linter failed, its error edge took it; Fix answered).
    const { checkpoints } = database.repositories;
    const row = (key: string, checkpoint: BlockCheckpoint) => checkpoints.row(run.id, key, checkpoint, checkpoint);
    await database.repositories.runWriter.write({
      runId: run.id,
      events: [
        {
          seq: 1,
          event: { type: "run.started", runId: run.id, workflowId: workflow.id, startedAt: startedAt.toISOString() },
        },
      ],
      deferred: [
        row("start", { status: "completed", output: { marker: "var x = 1" } }),
        row("linter", { status: "failed", error: { code: "block_failed", message: "lint: var" } }),
      ],
      checkpoint: row("fix", { status: "completed", output: { result: "let x = 1" } }),
    });
    await database.prisma.worker.create({
      data: { id: dead, host: "gone", pid: 999_999, startedAt, heartbeatAt: new Date(Date.now() - 60_000) },
    });

    await workers.sweep();

    const ended = await waitForEnd(database.repositories, workspaceId, run.id);
    expect(ended).toMatchObject({ status: "succeeded", output: { linted: "let x = 1" } });
    const events = await expectEndedWhole(run.id, "succeeded");
    const started = events.flatMap((event) =>
      event.type === "block.started" ? [`${event.blockId}#${event.attempt ?? "-"}`] : [],
    );
    // Only the second pass ran: Linter (attempt 2) on the fix, Fix skipped, then the Response once.
    expect(started).toEqual(["linter#2", "response#-"]);
    const stored = await database.repositories.checkpoints.load(run.id);
    expect([...stored.checkpoints.keys()].sort()).toEqual(["fix", "linter", "linter~2", "response", "start"]);
    const linterSpans = (await database.repositories.spans.listByRun(run.id)).filter(
      (span) => span.blockId === "linter",
    );
    expect(linterSpans.map((span) => [span.attempt, span.status])).toEqual([[2, "succeeded"]]);
  });

  it("recovery giving up: a run held by a dead process that already stopped MAX_RECOVERIES times fails with worker_lost", async () => {
    const document = agentDocument();
    const workflow = await database.repositories.workflows.create(workspaceId, document);
    const marker = `given-up-${randomUUID().slice(0, 8)}`;
    const dead = `dead-${randomUUID().slice(0, 8)}`;
    const startedAt = new Date(Date.now() - 5_000);
    const run = await database.repositories.runs.create({
      workspaceId,
      workflowId: workflow.id,
      status: "running",
      input: { marker },
      document,
      worker: dead,
      startedAt,
    });
    await database.prisma.run.update({ where: { id: run.id }, data: { recoveries: MAX_RECOVERIES } });
    const blockSpan: SpanRecord = {
      id: randomUUID(),
      runId: run.id,
      parentId: null,
      kind: "block",
      blockId: "agent",
      blockName: "Agent",
      blockType: "agent",
      status: "running",
      startedAt: new Date(startedAt.getTime() + 100).toISOString(),
      worker: dead,
    };
    const modelSpan: SpanRecord = {
      ...blockSpan,
      id: randomUUID(),
      parentId: blockSpan.id,
      kind: "model",
      name: "gpt-4o-mini",
      model: "openai/gpt-4o-mini",
      startedAt: new Date(startedAt.getTime() + 200).toISOString(),
    };
    await database.repositories.runWriter.write({ runId: run.id, spans: [blockSpan, modelSpan] });
    await database.repositories.runEvents.append(run.id, [
      {
        seq: 1,
        event: { type: "run.started", runId: run.id, workflowId: workflow.id, startedAt: startedAt.toISOString() },
      },
      {
        seq: 2,
        event: {
          type: "block.started",
          runId: run.id,
          blockId: "agent",
          blockName: "Agent",
          blockType: "agent",
          spanId: blockSpan.id,
          startedAt: blockSpan.startedAt,
        },
      },
    ]);
    // Last, so that the lease loop cannot find the dead process before its run looks as it should.
    await database.prisma.worker.create({
      data: { id: dead, host: "gone", pid: 999_999, startedAt, heartbeatAt: new Date(Date.now() - 60_000) },
    });

    await workers.sweep();

    const events = await expectEndedWhole(run.id, "failed");
    const ended = await database.repositories.runs.get(workspaceId, run.id);
    expect(ended.error?.code).toBe("worker_lost");
    expect(ended.error?.message).toMatch(/stopped \d+ times; it was not resumed again/);
    expect(ended.durationMs).toBeGreaterThanOrEqual(5_000);
    expect(ended.recoveries).toBe(MAX_RECOVERIES);
    expect(events.map((event) => event.type)).toEqual(["run.started", "block.started", "run.failed"]);
    expect(events.at(-1)).toMatchObject({ type: "run.failed", error: { code: "worker_lost" } });
    const spans = await database.repositories.spans.listByRun(run.id);
    expect(spans.map((span) => [span.kind, span.status, span.error?.code])).toEqual([
      ["block", "failed", "worker_lost"],
      ["model", "failed", "worker_lost"],
    ]);
    expect(await database.prisma.worker.count({ where: { id: dead } })).toBe(0);
    // It was not resumed: no block ran again.
    expect(requestsWith(llm, `Echo ${marker}`)).toBe(0);
  });

  it("cancelled while a model call is in flight: the call's span ends with its block", async () => {
    const workflow = await database.repositories.workflows.create(workspaceId, fastSlowDocument());
    const marker = `cancelled-${randomUUID().slice(0, 8)}`;
    plans.set(marker, { chunks: 20, delayMs: 500 });
    const live = await runtime.runs.start(workspaceId, workflow.id, { marker });
    await waitFor("the SLOW call in flight", () => requestsWith(llm, `SLOW ${marker}`) === 1);
    await runtime.runs.cancel(workspaceId, live.runId);
    expect((await live.done).status).toBe("cancelled");
    await expectEndedWhole(live.runId, "cancelled");
    const spans = await database.repositories.spans.listByRun(live.runId);
    const slow = spans.filter((span) => span.blockId === "slow").map((span) => `${span.kind} ${span.status}`);
    expect(slow.sort()).toEqual(["block cancelled", "model cancelled"]);
  });

  it("failed: a block whose model refuses ends the run failed", async () => {
    const workflow = await database.repositories.workflows.create(workspaceId, agentDocument("FAIL"));
    const live = await runtime.runs.start(workspaceId, workflow.id, { marker: "refused" });
    const run = await waitForEnd(database.repositories, workspaceId, live.runId);
    expect(run.error?.message).toMatch(/refuses/);
    const events = await expectEndedWhole(live.runId, "failed");
    expect(events.map((event) => event.type)).toContain("block.failed");
  });

  it("logged no storage failure while any of these ran", () => {
    expect(storageTrouble(loggedErrors().join("\n"))).toEqual([]);
  });
});
