import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ParsedLlmRequest } from "@/providers/testing/test-llm-server";
import { createPrisma, createRepositories, loadSecretKey } from "@/lib/db";
import { migrateDatabase } from "@/lib/db/migrate/apply-migrations.mjs";
import { startRunWorkers } from "@/lib/runs/durable/run-workers";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import {
  agentDocument,
  durableResponder,
  killAllWorkers,
  modelEnv,
  requestsWith,
  spawnWorker,
  startWebProcess,
  testRuntime,
  testWorkerConfig,
  waitFor,
  waitForEnd,
} from "./__fixtures__/durable-kit";
import { LOOP_HOLD_LIMIT_MS } from "./run-watchdog";

/**
 * The CPU watchdog of a recovered run, across a real kill: a worker process dies (SIGKILL) while
 * the run's agent block is running; this process recovers the run, and the block, run again, holds
 * the event loop past LOOP_HOLD_LIMIT_MS (its model call answers only after a synchronous stall of
 * this process, as a quadratic step on a long input did). Two trips: the run fails `worker_lost`
 * naming the block, instead of holding the next process again. Embedded database: the process that
 * comes back after the kill is this one (as in durable-processes.db.test.ts).
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
let llm: TestLlmServer;
/** How long the next SLOW request stalls this process's event loop before it is answered (0: not at all). */
let stallNextMs = 0;
const answer = durableResponder(new Map(), { chunks: 4, delayMs: 1_000 });

function stallingResponder(request: ParsedLlmRequest) {
  if (stallNextMs > 0 && request.userTexts.join("\n").startsWith("SLOW")) {
    const until = performance.now() + stallNextMs;
    stallNextMs = 0;
    while (performance.now() < until) {
      // Holds the event loop, like a block that computes without yielding.
    }
  }
  return answer(request);
}

beforeAll(async () => {
  llm = await startTestLlmServer({ defaultResponder: stallingResponder });
});

afterAll(async () => {
  await killAllWorkers();
  await llm?.close();
});

describe("the CPU watchdog of a recovered run", () => {
  it.skipIf(onPostgres)(
    "fails worker_lost naming the block when its process died in it and the resumed block then holds the event loop",
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "trellis-watchdog-"));
      const databaseDir = path.join(dataDir, "pglite");
      const secretKey = () => loadSecretKey({ dataDir });
      let reopened: ReturnType<typeof createPrisma> | undefined;
      let stopWorkers: (() => Promise<void>) | undefined;
      try {
        await migrateDatabase({ kind: "embedded", dataDir, databaseDir });
        const marker = `watchdog-${randomUUID().slice(0, 8)}`;
        const first = createPrisma({ kind: "embedded", databaseDir });
        let workspaceId = "";
        let runId = "";
        try {
          await first.ready;
          const repositories = createRepositories(first.prisma, { secretKey });
          workspaceId = (await first.prisma.workspace.create({ data: { name: "Watchdog" } })).id;
          const workflow = await repositories.workflows.create(workspaceId, agentDocument("SLOW"));
          const web = await startWebProcess({ repositories, llm, url: first.url!, singleProcess: true });
          try {
            const live = await web.runtime.runs.start(workspaceId, workflow.id, { marker });
            live.done.catch(() => {});
            runId = live.runId;
          } finally {
            await web.stop();
          }
        } finally {
          await first.close();
        }

        // Worker A takes the run and dies while its agent block is running.
        const workerA = spawnWorker("A", { DATA_DIR: dataDir, ...modelEnv(llm) });
        await workerA.ready;
        await waitFor("the agent's call in flight", () => requestsWith(llm, `SLOW ${marker}`) === 1, 30_000);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await workerA.kill("SIGKILL");

        // This process recovers it; the block's next call stalls the loop past the watchdog's limit.
        stallNextMs = LOOP_HOLD_LIMIT_MS + 1_000;
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
        const run = await waitForEnd(repositories, workspaceId, runId, 30_000);

        expect(run.status).toBe("failed");
        expect(run.error?.code).toBe("worker_lost");
        expect(run.error?.message).toContain('Block "Agent" (agent) tripped the CPU watchdog 2 times');
        expect(run.error?.message).toContain("the process executing the run stopped while it ran");
        expect(run.error?.message).toMatch(/it held the server's event loop for \d+\.\d s/);
        expect(run.recoveries).toBe(1);
        // Stopped as soon as the block let go of the loop: its answer (four chunks a second apart) was not waited for.
        expect(Date.now() - Date.parse(run.endedAt!)).toBeLessThan(30_000);
        // The dead process's attempt at the block, then the resumed one, stopped by the watchdog.
        const spans = await repositories.spans.listByRun(runId);
        expect(
          spans
            .filter((span) => span.kind === "block" && span.blockId === "agent")
            .map((span) => [span.status, span.error?.code]),
        ).toEqual([
          ["failed", "worker_lost"],
          ["cancelled", undefined],
        ]);
      } finally {
        await stopWorkers?.();
        await reopened?.close();
        await killAllWorkers();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});
