/**
 * The fault suite's database outages (issue 40 item 6), for real: a private PostgreSQL server and
 * three processes of the built app on it (web that executes, worker, web-only; outage-cluster.ts).
 * Under a mixed load (run starts through the execute API on both web processes, `wait: true`
 * calls, reads), every session of the database is ended and new ones are refused for 0, 3 and
 * 10 s. Meanwhile a cancel for a long-running run is sent through the web-only process while
 * another process executes the run. Afterwards every process is alive, every run ended (failed
 * runs name their reason) with contiguous event ids, the cancel took effect, and readiness went
 * 503 during the outage and 200 after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "undici";
import { sharedAgent } from "./http";
import { report } from "./load-app";
import { sleep } from "./measure";
import { startOutageCluster, type OutageCluster } from "./__fixtures__/outage-cluster";

/** How long the database refuses connections in each phase. */
const OUTAGES_MS = [0, 3_000, 10_000];
/** Clients of the mixed load, each sending one request after another. */
const LOAD_CLIENTS = 4;
/** Past this after connections are allowed again, every web process must be ready again and take runs. */
const RECOVERY_BOUND_MS = 15_000;
/** How long runs may take to end once the load stops. */
const END_TIMEOUT_MS = 90_000;

/** Busy for up to a minute in its sandbox: only the cancel ends it early. */
const LONG_WORKFLOW = {
  name: "Long run to cancel",
  blocks: [
    { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
    {
      id: "busy",
      type: "function",
      name: "Busy",
      position: { x: 320, y: 0 },
      config: { code: "for (;;) {}", timeoutMs: 60_000 },
    },
    { id: "response", type: "response", name: "Response", position: { x: 640, y: 0 }, config: { data: { ok: true } } },
  ],
  edges: [
    { id: "start-busy", source: "start", target: "busy" },
    { id: "busy-response", source: "busy", target: "response" },
  ],
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

let cluster: OutageCluster;
let headers: Record<string, string>;

async function call(baseUrl: string, method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
  const answer = await request(`${baseUrl}${path}`, {
    method,
    dispatcher: sharedAgent,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.body.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // kept as text
  }
  return { status: answer.statusCode, body: parsed, text };
}

async function deployed(workflowId: string): Promise<void> {
  const answer = await call(cluster.app.baseUrl, "POST", `/api/workflows/${workflowId}/deployments`, {});
  if (answer.status !== 201)
    throw new Error(`deploying ${workflowId} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
}

/** The mixed load: run starts on both web processes, `wait: true` calls and reads, until stopped. */
function mixedLoad(workflowId: string) {
  const runIds = new Set<string>();
  const refused: string[] = [];
  const unexpected: string[] = [];
  let stopped = false;
  const web = cluster.app.baseUrl;
  const webOnly = cluster.webOnlyUrl;
  const one = async (turn: number): Promise<void> => {
    // A read needs a run to read: until the first start is answered, that turn starts one instead.
    const readId = [...runIds].at(-1);
    const kind = turn % 4 === 3 && !readId ? 0 : turn % 4;
    const answer =
      kind === 0
        ? await call(web, "POST", `/api/workflows/${workflowId}/execute`, {})
        : kind === 1
          ? await call(webOnly, "POST", `/api/workflows/${workflowId}/execute`, {})
          : kind === 2
            ? await call(webOnly, "POST", `/api/workflows/${workflowId}/execute`, { wait: true })
            : await call(web, "GET", `/api/runs/${readId}`);
    if (answer.status === 503 && answer.text.includes("database_unavailable")) {
      refused.push(answer.text);
      return;
    }
    const id =
      typeof answer.body.runId === "string"
        ? answer.body.runId
        : kind === 2 && typeof answer.body.id === "string"
          ? answer.body.id
          : undefined;
    if (id) runIds.add(id);
    const expected = kind === 2 || kind === 3 ? 200 : 202;
    if (answer.status !== expected) unexpected.push(`${answer.status} ${answer.text.slice(0, 300)}`);
  };
  const clients = Array.from({ length: LOAD_CLIENTS }, async (_, client) => {
    for (let turn = client; !stopped; turn += LOAD_CLIENTS)
      await one(turn).catch((error: unknown) => unexpected.push(`request failed: ${String(error)}`));
  });
  return {
    runIds,
    refused,
    unexpected,
    stop: async () => {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Polls readiness on both web processes every 100 ms: each answer's time and status. */
function readinessWatch() {
  const seen: { url: string; at: number; status: number }[] = [];
  let stopped = false;
  const pollers = [cluster.app.baseUrl, cluster.webOnlyUrl].map(async (url) => {
    while (!stopped) {
      const status = await request(`${url}/api/health/ready`, { dispatcher: sharedAgent })
        .then(async (answer) => (await answer.body.text(), answer.statusCode))
        .catch(() => 0);
      seen.push({ url, at: Date.now(), status });
      await sleep(100);
    }
  });
  return {
    seen,
    stop: async () => {
      stopped = true;
      await Promise.all(pollers);
    },
  };
}

async function waitUntilEnded(ids: string[]): Promise<void> {
  const deadline = Date.now() + END_TIMEOUT_MS;
  for (;;) {
    const rows = await cluster.query<{ id: string }>(
      "SELECT id FROM runs WHERE id = ANY($1) AND status NOT IN ('succeeded','failed','cancelled')",
      [ids],
    );
    if (rows.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(
        `${rows.length} of ${ids.length} runs had not ended ${END_TIMEOUT_MS / 1000} s after the load stopped`,
      );
    await sleep(250);
  }
}

beforeAll(async () => {
  cluster = await startOutageCluster();
  headers = cluster.app.headers;
});

afterAll(async () => {
  await cluster?.close();
});

describe("database outages under a mixed load on web, worker and web-only processes", () => {
  it("every process survives, every run ends with contiguous events, the cancel takes effect, readiness goes 503 and back", async () => {
    await deployed(cluster.app.workflowId);
    const created = await call(cluster.app.baseUrl, "POST", "/api/workflows", LONG_WORKFLOW);
    expect(created.status, created.text).toBe(201);
    const longWorkflowId = String(created.body.id);
    await deployed(longWorkflowId);

    for (const downMs of OUTAGES_MS) {
      const load = mixedLoad(cluster.app.workflowId);
      const long = await call(cluster.app.baseUrl, "POST", `/api/workflows/${longWorkflowId}/execute`, {});
      expect(long.status, long.text).toBe(202);
      const longRunId = String(long.body.runId);
      for (
        let tries = 0;
        (await cluster.query("SELECT 1 FROM runs WHERE id = $1 AND status = 'running'", [longRunId])).length === 0;
        tries++
      ) {
        if (tries > 100) throw new Error(`the long run ${longRunId} did not start`);
        await sleep(100);
      }
      await sleep(1_000);
      const readiness = readinessWatch();
      await sleep(300);

      const downAt = Date.now();
      // The cancel goes through the web-only process during the outage, retried as Retry-After says.
      const cancel = (async () => {
        await sleep(Math.min(downMs / 2, 1_000));
        for (;;) {
          const answer = await call(cluster.webOnlyUrl, "POST", `/api/runs/${longRunId}/cancel`, {});
          if (answer.status === 202) return { acceptedAt: Date.now(), refused: 0 };
          if (answer.status !== 503)
            throw new Error(`the cancel answered ${answer.status}: ${answer.text.slice(0, 500)}`);
          await sleep(250);
        }
      })();
      await cluster.database.blockConnections(downMs);
      const upAt = Date.now();

      // Recovered: both web processes ready again and a run start taken after connections returned.
      let startedAfterAt = 0;
      while (!startedAfterAt) {
        const answer = await call(cluster.webOnlyUrl, "POST", `/api/workflows/${cluster.app.workflowId}/execute`, {});
        if (answer.status === 202) {
          load.runIds.add(String(answer.body.runId));
          startedAfterAt = Date.now();
        } else await sleep(100);
        if (Date.now() - upAt > RECOVERY_BOUND_MS)
          throw new Error(`no run start was taken ${RECOVERY_BOUND_MS} ms after connections returned`);
      }
      const cancelled = await cancel;
      await sleep(2_000);
      await load.stop();
      await readiness.stop();

      const ids = [...load.runIds, longRunId];
      await waitUntilEnded(ids);
      const runs = await cluster.query<{
        id: string;
        status: string;
        error: { code?: string } | null;
        events: number;
        last: number;
        first: number | null;
        last_type: string | null;
      }>(
        `SELECT r.id, r.status, r.error, count(e.seq)::int AS events, coalesce(max(e.seq), 0)::int AS last, min(e.seq)::int AS first,
           (SELECT type FROM run_events WHERE run_id = r.id ORDER BY seq DESC LIMIT 1) AS last_type
         FROM runs r LEFT JOIN run_events e ON e.run_id = r.id WHERE r.id = ANY($1) GROUP BY r.id`,
        [ids],
      );
      const eventsLost = runs.reduce((lost, run) => lost + (run.last - run.events), 0);
      const statuses: Record<string, number> = {};
      for (const run of runs) statuses[run.status] = (statuses[run.status] ?? 0) + 1;
      const failedReasons = runs.filter((run) => run.status === "failed").map((run) => run.error?.code ?? "none");
      const readyAgainMs = Math.max(
        ...[cluster.app.baseUrl, cluster.webOnlyUrl].map((url) => {
          const back = readiness.seen.find((each) => each.url === url && each.at >= upAt && each.status === 200);
          return back ? back.at - upAt : Number.POSITIVE_INFINITY;
        }),
      );
      const saw503 = readiness.seen.filter(
        (each) => each.at >= downAt && each.at <= upAt + 1_000 && each.status === 503,
      ).length;
      const longRun = runs.find((run) => run.id === longRunId);

      report(`database outage ${downMs / 1000} s`, {
        runs: runs.length,
        statuses,
        failedReasons,
        eventsLost,
        refused503: load.refused.length,
        readiness503Answers: saw503,
        readyAgainMs,
        firstRunStartAfterMs: startedAfterAt - upAt,
        cancelAcceptedAfterOutageStartMs: cancelled.acceptedAt - downAt,
        longRun: longRun?.status,
      });

      const alive = Object.values(cluster.processes)
        .filter((managed) => managed.hasExited())
        .map((managed) => `${managed.name}: ${managed.log.slice(-20).join("\n")}`);
      expect(alive, "processes that exited").toEqual([]);
      expect(load.unexpected, "answers other than the expected ones or 503 database_unavailable").toEqual([]);
      expect(runs).toHaveLength(ids.length);
      for (const run of runs) {
        expect(run.first ?? 1, `first event of ${run.id}`).toBe(1);
        expect(run.last, `events of ${run.id} (${run.events} stored, last id ${run.last})`).toBe(run.events);
        expect(["run.completed", "run.failed", "run.cancelled"], `last event of ${run.id}`).toContain(run.last_type);
      }
      // A run accepted before or during the outage waits for the database (its setup only reads,
      // its writes are retried) instead of failing: before that, 6-11 of them failed run_setup_failed.
      expect(failedReasons, "runs that failed, by their error code").toEqual([]);
      expect(longRun?.status, "the run cancelled through the web-only process").toBe("cancelled");
      if (downMs > 0) expect(saw503, "readiness answers 503 during the outage").toBeGreaterThan(0);
      expect(readyAgainMs, "readiness back to 200 after the outage").toBeLessThan(RECOVERY_BOUND_MS);
    }
  });
});
