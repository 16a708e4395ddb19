import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun } from "@/contract";
import { startStatementLog, statementsByPurpose, type StatementLog } from "@/lib/db/statement-log";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { startRunWorkers, type RunWorkers } from "@/lib/runs/durable/run-workers";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import type { Runtime } from "@/lib/runtime/runtime";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testRuntime, testWorkerConfig, twoBlockDocument } from "./__fixtures__/durable-kit";

/**
 * What one run costs the database (issue 32): the statements a start -> response run sends from
 * `POST .../runs {"wait": true}` to its answer, in a process that executes runs, as the app runs
 * them (DBOS launched, the run writer on its own pool). Each statement is one round trip.
 *
 * Access (the API key and the member's role), the workflow, the workspace's secrets and its
 * prices are read by the in-process caches of issue 32 item 3; until they are in, they show here
 * as "SELECT <table>" and are not counted against the run. Before issue 32 the run itself sent
 * 16-19 (the run's insert, DBOS's enqueue, dequeue, start and finish, the claim, three writes, the
 * end's row, the answer's read-back and notifications).
 */

/**
 * The run's own statements, the target: its row and input; the response block's checkpoint
 * with its events and spans and the start block's (which rides along: run again it does the same);
 * its end with its last events and spans; and the workspace's budget caps.
 */
const RUN_STATEMENTS = 4;
/**
 * Notifications to other processes (PostgreSQL only): sent after the answer, shared by every run
 * that stored something in the same 10-50 ms, so one for a run shorter than 50 ms, two on a
 * machine slow enough to stretch it.
 */
const SIGNALS = 2;
/** Reads the in-process caches serve once they are merged (workflows and deployments, secrets, prices, API keys and members). */
const CACHEABLE = /^SELECT (workflows|deployments|secrets|price_overrides|api_keys|members|workspace_members)\b/;

let database: TestDatabase;
let llm: TestLlmServer;
let runtime: Runtime;
let workers: RunWorkers;
let endpoints: RunEndpoints;
let log: StatementLog;

beforeAll(async () => {
  database = await createTestDatabase({ serve: true });
  llm = await startTestLlmServer();
  runtime = testRuntime(database.repositories, llm);
  workers = await startRunWorkers({
    runs: runtime.runs,
    repositories: database.repositories,
    config: testWorkerConfig(),
    url: database.url!,
    singleProcess: !process.env.DATABASE_URL,
  });
  endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
}, 60_000);

afterAll(async () => {
  log?.stop();
  await workers?.stop();
  await llm?.close();
  await database?.close();
});

async function startAndWait(workspaceId: string, workflowId: string, marker: string): Promise<ApiRun> {
  const request = new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: { marker }, wait: true }),
  });
  const response = await endpoints.start(request, { id: workflowId }, testMember(workspaceId, "editor"));
  expect(response.status).toBe(200);
  return (await response.json()) as ApiRun;
}

describe("database round trips of one run", () => {
  it(`a two-block run sent with wait costs at most ${RUN_STATEMENTS} statements of its own, executes at once, and answers the finished run with its spans`, async () => {
    const workspaceId = await database.createWorkspace("Round trips");
    const workflowId = (await database.repositories.workflows.create(workspaceId, twoBlockDocument())).id;
    // Connections opened and statements prepared on the first run are not what a run costs.
    await startAndWait(workspaceId, workflowId, "warm-up");

    log = startStatementLog();
    const answer = await log.follow("run", () => startAndWait(workspaceId, workflowId, "measured"));
    // What the queue's own loops and the run bus send after the answer is still the run's.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const statements = log.statementsOf("run", [answer.id]);
    log.stop();

    expect(answer.status).toBe("succeeded");
    // Executed at once by the process it was started on, without a trip through the queue.
    expect(answer.worker).toBe(workers.workerId);
    expect(statements.filter((statement) => statement.purpose.includes("dbos."))).toEqual([]);
    expect(answer.output).toEqual({ marker: "measured" });
    expect(answer.spans.filter((span) => span.kind === "block").map((span) => span.status)).toEqual([
      "succeeded",
      "succeeded",
    ]);

    const byPurpose = statementsByPurpose(statements);
    const signals = statements.filter((statement) => statement.purpose === "NOTIFY");
    const own = statements.filter((statement) => !CACHEABLE.test(statement.purpose) && statement.purpose !== "NOTIFY");
    console.info(
      `[round trips] ${statements.length} statements for one two-block run (${own.length} of its own, ${signals.length} notifications, the rest cached reads) on ${process.env.DATABASE_URL ? "PostgreSQL" : "the embedded database"}:\n` +
        byPurpose.map(([purpose, count]) => `  ${purpose} x${count}`).join("\n"),
    );
    expect(own.length).toBeLessThanOrEqual(RUN_STATEMENTS);
    expect(signals.length).toBeLessThanOrEqual(SIGNALS);

    // The answer made from the attempt's memory is the run as GET /api/runs/:id reads it from storage, overhead figures included.
    const read = await endpoints.get(
      new Request(`http://localhost/api/runs/${answer.id}`),
      { id: answer.id },
      testMember(workspaceId, "viewer"),
    );
    expect(await read.json()).toEqual(answer);
    expect(answer.overhead).toEqual({
      queueMs: expect.any(Number),
      startMs: expect.any(Number),
      storageMs: expect.any(Number),
      betweenBlocksMs: expect.any(Number),
    });
  }, 60_000);
});
