/**
 * Memory bombs (issue 15): 50 Function blocks allocating until their limit, started at once with
 * 50 ordinary runs between them. Eight such blocks once took the server from 0.6 to 4.3 GB. Now
 * the sandboxes of a process share TRELLIS_SANDBOX_MEMORY_MB, so the server's peak stays under its
 * baseline plus that cap plus a margin, each bomb stops on its own memory limit, and the ordinary
 * runs all succeed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TWO_BLOCK_WORKFLOW } from "../scripts/bench-throughput/app";
import { callApi, expectStatus, waitForRuns } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";
import { RssSampler } from "./measure";

/** TRELLIS_SANDBOX_MEMORY_MB for this case: what all running sandboxes may reserve together. */
export const SANDBOX_MEMORY_MB = 512;
/** TRELLIS_SANDBOX_MAX_MEMORY_MB: each bomb asks for 512 MB and gets this. */
export const SANDBOX_MAX_MEMORY_MB = 128;
/** TRELLIS_SANDBOX_CONCURRENCY: above what the memory cap admits, so memory is the limit that binds. */
export const SANDBOX_CONCURRENCY = 4;
/** Room beyond the sandbox cap for the 100 runs' own work, their stored events and the embedded database. */
export const MARGIN_MB = 128;
export const BOMBS = 50;
/** Ordinary two-block runs, one started after each bomb. */
export const ORDINARY_RUNS = BOMBS;
const FINISH_TIMEOUT_MS = 300_000;

/** Keeps every array, so only the memory limit can stop it (its time limit is far off). */
const BOMB_CODE = "const hoard = [];\nfor (;;) hoard.push(new Array(65536).fill(hoard.length));";

const BOMB_WORKFLOW = {
  name: "Memory bomb",
  blocks: [
    TWO_BLOCK_WORKFLOW.blocks[0]!,
    {
      id: "bomb",
      type: "function",
      name: "Bomb",
      position: { x: 320, y: 0 },
      config: { code: BOMB_CODE, timeoutMs: 60_000, memoryLimitMb: 512 },
    },
    { ...TWO_BLOCK_WORKFLOW.blocks[1]!, position: { x: 640, y: 0 } },
  ],
  edges: [
    { id: "start-bomb", source: "start", target: "bomb" },
    { id: "bomb-response", source: "bomb", target: "response" },
  ],
};

describe("memory bombs", () => {
  let app: LoadApp;

  beforeAll(async () => {
    app = await startLoadApp("memory-bombs", {
      TRELLIS_SANDBOX_MEMORY_MB: String(SANDBOX_MEMORY_MB),
      TRELLIS_SANDBOX_MAX_MEMORY_MB: String(SANDBOX_MAX_MEMORY_MB),
      TRELLIS_SANDBOX_CONCURRENCY: String(SANDBOX_CONCURRENCY),
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it(`keeps the server under baseline + ${SANDBOX_MEMORY_MB} + ${MARGIN_MB} MB with ${BOMBS} bombs, and every other run succeeds`, async () => {
    const bombWorkflowId = String(
      expectStatus("POST bomb workflow", await callApi(app, "POST", "/api/workflows", BOMB_WORKFLOW), 201).id,
    );

    const memory = new RssSampler(app.webPid, 100);
    memory.start();
    const started = performance.now();
    const kinds = Array.from({ length: BOMBS }, () => ["bomb", "ordinary"] as const).flat();
    const starts = await Promise.all(
      kinds.map(async (kind) => {
        const workflowId = kind === "bomb" ? bombWorkflowId : app.workflowId;
        const answer = expectStatus<{ runId: string }>(
          `start a ${kind} run`,
          await callApi(app, "POST", `/api/workflows/${workflowId}/runs`, {}),
          202,
        );
        return { kind, runId: answer.runId };
      }),
    );
    const bombIds = starts.filter((start) => start.kind === "bomb").map((start) => start.runId);
    const ordinaryIds = starts.filter((start) => start.kind === "ordinary").map((start) => start.runId);
    const [bombs, ordinary] = await Promise.all([
      waitForRuns(app, bombWorkflowId, bombIds, FINISH_TIMEOUT_MS),
      waitForRuns(app, app.workflowId, ordinaryIds, FINISH_TIMEOUT_MS),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const rss = memory.stop();

    let firstError: string | undefined;
    const bombOutcomes = await Promise.all(
      bombIds.map(async (id) => {
        const run = expectStatus<{ status: string; error: { code?: string; message?: string } | null }>(
          "GET run",
          await callApi(app, "GET", `/api/runs/${id}`),
          200,
        );
        if (run.status === "succeeded") return "succeeded";
        const text = `${run.error?.code ?? ""} ${run.error?.message ?? ""}`;
        firstError ??= text.trim();
        return run.status === "failed" && /memory/i.test(text)
          ? "memory error"
          : `${run.status}: ${text.trim().slice(0, 200)}`;
      }),
    );
    const tally = (values: string[]) =>
      values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});
    const ordinaryStatuses = [...ordinary.values()].map((run) => run.status);
    const boundMb = rss.beforeMb + SANDBOX_MEMORY_MB + MARGIN_MB;

    report("memory bombs outcome", {
      bombs: JSON.stringify(tally(bombOutcomes)),
      ordinaryRuns: JSON.stringify(tally(ordinaryStatuses)),
      seconds: seconds.toFixed(1),
      bombRunsSeen: bombs.size,
      firstBombError: JSON.stringify(firstError),
      database: app.database,
    });
    report("memory bombs server RSS (MB)", {
      ...rss,
      riseMb: (rss.peakMb - rss.beforeMb).toFixed(1),
      boundPeakMb: boundMb,
    });

    expect
      .soft(
        ordinaryStatuses.filter((status) => status !== "succeeded"),
        "ordinary runs that did not succeed",
      )
      .toEqual([]);
    expect
      .soft(
        bombOutcomes.filter((outcome) => outcome !== "memory error" && outcome !== "succeeded"),
        "bombs that ended otherwise than by their memory limit",
      )
      .toEqual([]);
    expect
      .soft(rss.peakMb, `peak RSS (MB) against baseline ${rss.beforeMb} + ${SANDBOX_MEMORY_MB} + ${MARGIN_MB}`)
      .toBeLessThan(boundMb);
  });
});
