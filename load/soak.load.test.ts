/**
 * The soak (issue 15): a few clients send mixed traffic for SOAK_MINUTES (runs waited for and in
 * the background, small uploads, workflow saves, list reads). It fails on any 5xx or refused
 * request, and when the server's retained JavaScript heap grows: the least-squares slope, after the
 * warm-up, of the heap in use right after a full collection, read at the start and after each
 * tenth of the soak (GET /api/health/details?collect=1, the server started with --expose-gc),
 * exceeds SLOPE_BOUND_MB_PER_MINUTE. RSS is reported beside it but not bounded: it holds the embedded database's
 * WebAssembly memory, which grows with the data stored (1,800 documents in 10 minutes) up to its
 * caches, and pages V8 returns to the system only lazily (measured: 536 MB to 825-1,050 MB over
 * 10 minutes, with swings of 200 MB between minutes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TWO_BLOCK_WORKFLOW } from "../scripts/bench-throughput/app";
import { callApi, createKnowledgeBase, expectStatus, repeatedLines, upload, waitForRuns, type Answer } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";
import { latencyFigures, leastSquaresSlope, rssMb, sleep } from "./measure";
import type { HealthDetails } from "@/contract";

/** TRELLIS_SOAK_MINUTES shortens it (e.g. 2 for a quick look); the issue asks for 10. */
export const SOAK_MINUTES = Number(process.env.TRELLIS_SOAK_MINUTES || 10);
/** Samples are taken at the start and after each tenth of the soak. */
export const SAMPLE_INTERVALS = 10;
/** The first fifth (2 minutes of 10) fills caches, pools and the JIT; only the samples after it count. */
export const WARM_UP_MINUTES = SOAK_MINUTES / 5;
export const SLOPE_BOUND_MB_PER_MINUTE = 5;
export const CLIENTS = 4;
/** Pause between a client's requests, so the clients leave the server's 2 cores some room: steady use, not a flood. */
const THINK_MS = { min: 50, max: 150 };

type Operation = "run and wait" | "run in background" | "upload" | "save" | "list";
const WEIGHTS: Array<[Operation, number]> = [
  ["run and wait", 3],
  ["run in background", 2],
  ["upload", 1],
  ["save", 2],
  ["list", 2],
];

function pickOperation(): Operation {
  let roll = Math.random() * WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [operation, weight] of WEIGHTS) if ((roll -= weight) < 0) return operation;
  return "list";
}

interface Tally {
  latencies: number[];
  unexpected: string[];
  serverErrors: number;
}

/** The server's JavaScript heap retained now: in use after a full collection, from its health details (members only). */
async function retainedHeapMb(app: LoadApp): Promise<number> {
  const answer = await callApi(app, "GET", "/api/health/details?collect=1");
  if (answer.status !== 200)
    throw new Error(`GET /api/health/details answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  const { memory } = answer.body as HealthDetails;
  if (!memory.collected)
    throw new Error("The server did not collect garbage before answering: it was not started with --expose-gc");
  return memory.heapUsedMb;
}

describe("soak", () => {
  let app: LoadApp;

  beforeAll(async () => {
    if (!(SOAK_MINUTES > 0))
      throw new Error(
        `TRELLIS_SOAK_MINUTES must be a positive number of minutes, not "${process.env.TRELLIS_SOAK_MINUTES}"`,
      );
    app = await startLoadApp("soak", { NODE_OPTIONS: "--expose-gc" });
  });

  afterAll(async () => {
    await app?.close();
  });

  it(`keeps retained heap growth under ${SLOPE_BOUND_MB_PER_MINUTE} MB/min over ${SOAK_MINUTES} minutes of mixed traffic, with no 5xx`, async () => {
    const baseId = await createKnowledgeBase(app, "Soak");
    const tallies = new Map<Operation, Tally>(
      WEIGHTS.map(([operation]) => [operation, { latencies: [], unexpected: [], serverErrors: 0 }]),
    );
    const backgroundRuns: string[] = [];
    let uploads = 0;

    const client = async (index: number, until: number) => {
      const created = expectStatus(
        "POST workflow",
        await callApi(app, "POST", "/api/workflows", { ...TWO_BLOCK_WORKFLOW, name: `Soak client ${index}` }),
        201,
      );
      const workflowId = String(created.id);
      let version = Number(created.version);
      let step = 0;
      const lists = [
        `/api/workflows`,
        `/api/workflows/${app.workflowId}/runs`,
        `/api/knowledge-bases/${baseId}/documents`,
      ];
      while (Date.now() < until) {
        step += 1;
        const operation = pickOperation();
        const tally = tallies.get(operation)!;
        const sent = performance.now();
        let answer: Answer;
        let expected: number;
        try {
          if (operation === "run and wait") {
            [answer, expected] = [
              await callApi(app, "POST", `/api/workflows/${app.workflowId}/runs`, { wait: true }),
              200,
            ];
            if (answer.status === 200 && (answer.body as { status?: string }).status !== "succeeded")
              tally.unexpected.push(`run ${answer.text.slice(0, 300)}`);
          } else if (operation === "run in background") {
            [answer, expected] = [await callApi(app, "POST", `/api/workflows/${app.workflowId}/runs`, {}), 202];
            if (answer.status === 202) backgroundRuns.push((answer.body as { runId: string }).runId);
          } else if (operation === "upload") {
            uploads += 1;
            [answer, expected] = [
              await upload(
                app,
                baseId,
                repeatedLines(
                  `note-${index}-${step}.txt`,
                  2_048 + ((step * 97) % 2_048),
                  `Client ${index} wrote note ${step}.\n`,
                ),
              ),
              202,
            ];
          } else if (operation === "save") {
            const document = {
              ...TWO_BLOCK_WORKFLOW,
              name: `Soak client ${index}`,
              description: `save ${step}`,
              version,
            };
            [answer, expected] = [await callApi(app, "PUT", `/api/workflows/${workflowId}`, document), 200];
            if (answer.status === 200) version = Number((answer.body as { version: number }).version);
          } else {
            [answer, expected] = [await callApi(app, "GET", lists[step % lists.length]!), 200];
          }
          tally.latencies.push(performance.now() - sent);
          if (answer.status >= 500) tally.serverErrors += 1;
          if (answer.status !== expected) tally.unexpected.push(`HTTP ${answer.status}: ${answer.text.slice(0, 300)}`);
        } catch (error) {
          tally.unexpected.push(`request failed: ${String(error)}`);
        }
        await sleep(THINK_MS.min + Math.random() * (THINK_MS.max - THINK_MS.min));
      }
    };

    const started = Date.now();
    const until = started + SOAK_MINUTES * 60_000;
    const samples: Array<{ minute: number; rssMb: number; retainedHeapMb: number }> = [
      { minute: 0, rssMb: rssMb(app.webPid), retainedHeapMb: await retainedHeapMb(app) },
    ];
    const sampler = (async () => {
      for (let interval = 1; interval <= SAMPLE_INTERVALS; interval += 1) {
        await sleep(started + (interval * (until - started)) / SAMPLE_INTERVALS - Date.now());
        samples.push({
          minute: Math.round(((Date.now() - started) / 60_000) * 100) / 100,
          rssMb: rssMb(app.webPid),
          retainedHeapMb: await retainedHeapMb(app),
        });
      }
    })();
    await Promise.all([...Array.from({ length: CLIENTS }, (_, index) => client(index + 1, until)), sampler]);

    const ended = await waitForRuns(app, app.workflowId, backgroundRuns, 120_000);
    const backgroundFailures = [...ended.values()]
      .filter((run) => run.status !== "succeeded")
      .map((run) => `${run.id} ${run.status}`);
    const counted = samples.filter((sample) => sample.minute >= WARM_UP_MINUTES - 0.01);
    const slope = leastSquaresSlope(counted.map((sample) => ({ x: sample.minute, y: sample.retainedHeapMb })));
    const rssSlope = leastSquaresSlope(counted.map((sample) => ({ x: sample.minute, y: sample.rssMb })));

    for (const [operation, tally] of tallies) {
      report(`soak ${operation}`, {
        ...latencyFigures(tally.latencies),
        serverErrors: tally.serverErrors,
        unexpected: tally.unexpected.length,
      });
    }
    report("soak samples (minute: retained heap MB / RSS MB)", {
      samples: samples
        .map((sample) => `${sample.minute}: ${sample.retainedHeapMb.toFixed(1)} / ${sample.rssMb}`)
        .join("; "),
    });
    report("soak summary", {
      minutes: SOAK_MINUTES,
      clients: CLIENTS,
      backgroundRuns: backgroundRuns.length,
      backgroundNotSucceeded: backgroundFailures.length,
      uploads,
      heapSlopeMbPerMinute: slope.toFixed(2),
      boundMbPerMinute: SLOPE_BOUND_MB_PER_MINUTE,
      rssSlopeMbPerMinute: rssSlope.toFixed(2),
      samplesCounted: counted.length,
      database: app.database,
    });
    const unexpected = [...tallies.entries()].flatMap(([operation, tally]) =>
      tally.unexpected.map((problem) => `${operation}: ${problem}`),
    );
    if (unexpected.length > 0) report("soak first unexpected answers", { first: unexpected.slice(0, 3) });

    expect
      .soft(
        [...tallies.values()].reduce((sum, tally) => sum + tally.serverErrors, 0),
        "5xx answers",
      )
      .toBe(0);
    expect.soft(unexpected.slice(0, 5), "unexpected answers or failed requests").toEqual([]);
    expect.soft(backgroundFailures.slice(0, 5), "background runs that did not succeed").toEqual([]);
    expect.soft(slope, "retained heap slope after the warm-up (MB/min)").toBeLessThan(SLOPE_BOUND_MB_PER_MINUTE);
  });
});
