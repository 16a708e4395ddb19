/**
 * Starts the built app the way an operator does (`node scripts/migrate.mjs && next start`, and for
 * the split setup `scripts/worker.ts` beside it), signs the owner in over HTTP, makes an API key
 * and the bench's workflow, and hands back what the load needs.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { request } from "undici";
import { start, stop, runToEnd, waitUntil, type Managed } from "./processes";

export type SetupName = "pg-single" | "pg-split" | "embedded";

export const SETUP_DESCRIPTIONS: Record<SetupName, string> = {
  "pg-single": "PostgreSQL, one process (next start, TRELLIS_WORKER=on)",
  "pg-split": "PostgreSQL, web (TRELLIS_WORKER=off) + one worker process",
  embedded: "embedded database (PGlite in DATA_DIR), one process",
};

export interface AppOptions {
  setup: SetupName;
  port: number;
  /** Fresh data directory (secret key; the embedded database lives here too). */
  dataDir: string;
  /** For the PostgreSQL setups: the database the app uses (already created, empty). */
  databaseUrl?: string;
  /** Starts the web process with `node --cpu-prof` writing here. */
  profileDir?: string;
  /** Prints the processes' output as it comes. */
  echo?: boolean;
  /** Settings for the app's processes beyond the bench's own (sandbox limits, time budgets). */
  env?: Record<string, string>;
}

export interface RunningApp {
  baseUrl: string;
  headers: Record<string, string>;
  workflowId: string;
  processes: Managed[];
  stop(): Promise<void>;
}

const ROOT = process.cwd();
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const OWNER = { email: "bench@trellis.test", password: "bench-owner-password-1" };

/** start -> response: the least a run can be, with every trace stored. */
export const TWO_BLOCK_WORKFLOW = {
  name: "Throughput bench",
  blocks: [
    { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
    { id: "response", type: "response", name: "Response", position: { x: 320, y: 0 }, config: { data: { ok: true } } },
  ],
  edges: [{ id: "start-response", source: "start", target: "response" }],
};

function appEnvironment(options: AppOptions, secretKey: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: options.dataDir,
    TRELLIS_ADMIN_EMAIL: OWNER.email,
    TRELLIS_ADMIN_PASSWORD: OWNER.password,
    // Shared by the web and worker processes (stored secrets, sealed checkpoints, sessions).
    TRELLIS_SECRET_KEY: secretKey,
  };
  // What the bench's own runner (tsx) or the caller's shell put there is not the app's.
  for (const name of ["NODE_OPTIONS", "DATABASE_URL", "TRELLIS_TEST_PGLITE_TEMPLATE", "TRELLIS_WORKER", "PORT", "HOST"])
    delete env[name];
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  return { ...env, ...options.env };
}

async function json(
  method: "GET" | "POST",
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: unknown; setCookie: string[] }> {
  const answer = await request(url, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.body.text();
  const raw = answer.headers["set-cookie"];
  const setCookie = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error message
  }
  return { status: answer.statusCode, body: parsed, setCookie };
}

function expectStatus(
  what: string,
  answer: { status: number; body: unknown },
  status: number,
): Record<string, unknown> {
  if (answer.status !== status)
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 2_000)}`);
  return answer.body as Record<string, unknown>;
}

/** Checks a `wait: true` answer: the run succeeded and its trace (a span per block) came with it. */
export function checkRunAnswer(text: string): string | null {
  let run: { status?: unknown; spans?: unknown; error?: unknown };
  try {
    run = JSON.parse(text) as typeof run;
  } catch {
    return `the answer is not JSON: ${text.slice(0, 500)}`;
  }
  if (run.status !== "succeeded")
    return `run ${String(run.status)}: ${JSON.stringify(run.error ?? run).slice(0, 2_000)}`;
  if (!Array.isArray(run.spans) || run.spans.length < TWO_BLOCK_WORKFLOW.blocks.length)
    return `the run came with ${JSON.stringify(run.spans)?.slice(0, 500)} as spans`;
  return null;
}

export async function startApp(options: AppOptions): Promise<RunningApp> {
  const env = appEnvironment(options, randomBytes(32).toString("hex"));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const processes: Managed[] = [];
  const stopAllOfThem = async () => {
    // The web process last: a worker stopping still talks to the database, not to the web process.
    for (const managed of [...processes].reverse()) await stop(managed);
  };
  try {
    await runToEnd(`${options.setup}: migrate`, process.execPath, [path.join(ROOT, "scripts/migrate.mjs")], env);
    const webEnv: NodeJS.ProcessEnv = { ...env, TRELLIS_WORKER: options.setup === "pg-split" ? "off" : "on" };
    // `next start` is one node process: --cpu-prof on its command line (Node 20 refuses it in NODE_OPTIONS); the profile is written when it exits.
    const profiling = options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`] : [];
    const web = start(
      `${options.setup}: web`,
      process.execPath,
      [...profiling, NEXT_BIN, "start", "-H", "127.0.0.1", "-p", String(options.port)],
      webEnv,
      {
        echo: options.echo,
      },
    );
    processes.push(web);
    await waitUntil(
      "/api/health",
      async () => (await json("GET", `${baseUrl}/api/health`, {})).status === 200,
      [web],
      120_000,
    );
    if (options.setup === "pg-split") {
      const worker = start(
        `${options.setup}: worker`,
        process.execPath,
        [TSX_CLI, "--conditions=react-server", path.join(ROOT, "scripts/worker.ts")],
        env,
        {
          echo: options.echo,
        },
      );
      processes.push(worker);
      await waitUntil(
        "the worker to join the queue",
        async () => worker.log.some((line) => line.includes("is executing runs")),
        [web, worker],
        120_000,
      );
    }

    // Sign in as the owner (created at start from TRELLIS_ADMIN_*), then act with an API key, as scripts do.
    const signIn = await json("POST", `${baseUrl}/api/auth/sign-in/email`, {}, OWNER);
    expectStatus("sign-in", signIn, 200);
    const cookie = signIn.setCookie.map((line) => line.split(";")[0]).join("; ");
    const created = expectStatus(
      "POST /api/api-keys",
      await json("POST", `${baseUrl}/api/api-keys`, { cookie }, { name: "throughput bench" }),
      201,
    );
    const headers = { authorization: `Bearer ${String(created.key)}` };
    const workflow = expectStatus(
      "POST /api/workflows",
      await json("POST", `${baseUrl}/api/workflows`, headers, TWO_BLOCK_WORKFLOW),
      201,
    );
    if (Array.isArray(workflow.issues) && workflow.issues.length > 0)
      throw new Error(`the bench workflow has issues: ${JSON.stringify(workflow.issues)}`);
    const workflowId = String(workflow.id);

    // One run before the clock starts, to fail early and clearly.
    const probe = await request(`${baseUrl}/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ wait: true }),
    });
    const probeText = await probe.body.text();
    const problem =
      probe.statusCode === 200 ? checkRunAnswer(probeText) : `HTTP ${probe.statusCode}: ${probeText.slice(0, 2_000)}`;
    if (problem) throw new Error(`the first run did not succeed: ${problem}`);
    return { baseUrl, headers, workflowId, processes, stop: stopAllOfThem };
  } catch (error) {
    await stopAllOfThem();
    throw error;
  }
}
