import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import {
  isTerminalEvent,
  workflowDocumentSchema,
  type RunEvent,
  type RunRecord,
  type RunStatus,
  type SpanRecord,
  type WorkflowDocument,
  type WorkflowDocumentInput,
} from "@/contract";
import type { Repositories } from "@/lib/db";
import { testMember } from "@/lib/http/test-members";
import { startRunWorkers, type RunWorkers } from "@/lib/runs/durable/run-workers";
import { workerConfigFrom, type WorkerConfig } from "@/lib/runs/durable/worker-config";
import { runEndpoints, type RunEndpoints } from "@/lib/runs/run-endpoints";
import { createRuntime, type Runtime } from "@/lib/runtime/runtime";
import type { ParsedLlmRequest, ScriptedResponse, TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { parseSse, type ParsedSse } from "../../__fixtures__/run-test-kit";

/**
 * Durable runs with real processes: `npm run worker` children on one database, the test process
 * as the web process (or as the process that comes back), and the test LLM server as every model.
 */

/** Short enough that takeover happens within a test, long enough for a loaded machine's heartbeats. */
export const LEASE_MS = 2_000;
export const QUEUE_POLL_MS = 20;
const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const WORKER_SCRIPT = path.join(REPO_ROOT, "scripts", "worker.ts");

export const ENDED: readonly RunStatus[] = ["succeeded", "failed", "cancelled"];

/** The worker config of a process in these tests (the lease and poll the children get too). */
export function testWorkerConfig(overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  const base = workerConfigFrom(
    (name) => ({ TRELLIS_WORKER_LEASE_MS: String(LEASE_MS), TRELLIS_QUEUE_POLL_MS: String(QUEUE_POLL_MS) })[name],
  );
  return { ...base, ...overrides };
}

// ---------------------------------------------------------------------------------------------
// Worker processes

export interface WorkerProcess {
  label: string;
  pid: number;
  /** Resolves with the worker's id once it executes runs; rejects if it exits first. */
  ready: Promise<string>;
  /** Everything it wrote to stdout and stderr so far. */
  log(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** Sends `signal` (SIGKILL by default) and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const spawned = new Set<WorkerProcess>();

/** Variables of the test process a child must not inherit: the test database setup's, and any provider's. */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      name === "DATABASE_URL" ||
      name === "DATA_DIR" ||
      name.startsWith("TRELLIS_") ||
      /_(API_KEY|BASE_URL)$/.test(name)
    )
      continue;
    env[name] = value;
  }
  return env;
}

/**
 * Starts `scripts/worker.ts` as its own Node process (tsx as a loader, so that the pid is the
 * worker's and SIGKILL kills it, not a wrapper). `env` says where its database is (DATABASE_URL
 * or DATA_DIR) and where its models are.
 */
export function spawnWorker(label: string, env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", WORKER_SCRIPT], {
    cwd: REPO_ROOT,
    env: {
      ...inheritedEnv(),
      NODE_ENV: process.env.NODE_ENV ?? "test",
      TRELLIS_WORKER_LEASE_MS: String(LEASE_MS),
      TRELLIS_QUEUE_POLL_MS: String(QUEUE_POLL_MS),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      exitInfo = { code, signal };
      resolve(exitInfo);
    });
  });
  const ready = new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /worker (\S+) is executing runs/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      look();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`worker ${label} exited (code ${code}, signal ${signal}) before it was ready:\n${output}`)),
    );
  });
  ready.catch(() => {});
  const worker: WorkerProcess = {
    label,
    pid: child.pid ?? -1,
    ready,
    log: () => output,
    exited,
    alive: () => exitInfo === undefined,
    async kill(signal = "SIGKILL") {
      if (exitInfo === undefined) child.kill(signal);
      await exited;
      spawned.delete(worker);
    },
  };
  spawned.add(worker);
  return worker;
}

/** Kills every worker process still running (afterEach / afterAll). */
export async function killAllWorkers(): Promise<void> {
  await Promise.all([...spawned].map((worker) => worker.kill("SIGKILL")));
}

/** Lines of a log that say storing, signalling or the lease failed. */
export function storageTrouble(log: string): string[] {
  return log
    .split("\n")
    .filter((line) =>
      /could not (store|signal|lock)|could not be stored|sweep failed|lost its lease|prisma:error|PrismaClient|ECONNRESET|ECONNREFUSED|terminating connection/i.test(
        line,
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// The models

/** How a SLOW prompt is answered: `chunks` pieces, `delayMs` apart. */
export interface SlowPlan {
  chunks: number;
  delayMs: number;
}

/**
 * FAST prompts are answered at once; SLOW prompts slowly (by default 4 chunks 1 s apart, or as
 * `plans` says for the marker the prompt holds); FAIL prompts are refused (HTTP 400, not retried);
 * anything else is echoed at once.
 */
export function durableResponder(
  plans: Map<string, SlowPlan> = new Map(),
  fallback: SlowPlan = { chunks: 4, delayMs: 1_000 },
) {
  return (request: ParsedLlmRequest): ScriptedResponse => {
    const prompt = request.userTexts.join("\n");
    if (prompt.startsWith("FAST"))
      return { kind: "text", text: `fast answer to ${prompt}`, usage: { prompt: 12, completion: 5 } };
    if (prompt.startsWith("SLOW")) {
      const marker = prompt.slice("SLOW ".length).trim();
      const plan = plans.get(marker) ?? fallback;
      return {
        kind: "text",
        text: Array.from({ length: plan.chunks }, (_, index) => `part${index + 1} `).join(""),
        chunks: Array.from({ length: plan.chunks }, (_, index) => `part${index + 1} `),
        delayMs: plan.delayMs,
        usage: { prompt: 20, completion: 4 * plan.chunks },
      };
    }
    if (prompt.startsWith("FAIL")) return { kind: "error", status: 400, message: "The model refuses this prompt" };
    return { kind: "text", text: `Echo: ${prompt}`, usage: { prompt: 8, completion: 4 } };
  };
}

/** The tool call id the calculator responder gives a CALC prompt's call (fixed per marker). */
export const calcCallId = (marker: string) => `calc-${marker}`;

/** What the calculator responder answers once the call's result (or its denial) is back. */
export const calcAnswer = (marker: string) => `The answer is 42 (${marker}).`;

/**
 * CALC prompts: the first answer calls the calculator with `6*7` (call id `calcCallId(marker)`),
 * the answer to the tool's result (or to its denial) is `calcAnswer(marker)`. Anything else goes to
 * `otherwise` (the durable responder by default).
 */
export function calculatorResponder(otherwise: (request: ParsedLlmRequest) => ScriptedResponse = durableResponder()) {
  return (request: ParsedLlmRequest): ScriptedResponse => {
    const prompt = request.userTexts.join("\n");
    if (!prompt.startsWith("CALC")) return otherwise(request);
    const marker = prompt.slice("CALC ".length).trim();
    if (request.endsWithToolResult)
      return { kind: "text", text: calcAnswer(marker), usage: { prompt: 30, completion: 6 } };
    return {
      kind: "tool-calls",
      calls: [{ id: calcCallId(marker), name: "calculator", arguments: { expression: "6*7" } }],
      usage: { prompt: 20, completion: 8 },
    };
  };
}

/** The requests the server received whose prompt is exactly `prompt`. */
export function requestsWith(llm: TestLlmServer, prompt: string): number {
  return llm.requests.filter((request) => request.parsed.userTexts.join("\n") === prompt).length;
}

/** What a worker child needs to reach the test LLM server as OpenAI. */
export function modelEnv(llm: TestLlmServer): Record<string, string> {
  return { OPENAI_BASE_URL: llm.openaiBaseUrl, OPENAI_API_KEY: "test" };
}

// ---------------------------------------------------------------------------------------------
// Workflows

function block(id: string, type: string, name: string, config: Record<string, unknown>) {
  return { id, type, name, position: { x: 0, y: 0 }, parentId: null, enabled: true, config };
}

function chain(name: string, blocks: ReturnType<typeof block>[]): WorkflowDocument {
  const input: WorkflowDocumentInput = {
    name,
    description: "",
    variables: {},
    blocks,
    edges: blocks.slice(1).map((target, index) => ({ id: `e${index}`, source: blocks[index]!.id, target: target.id })),
  };
  return workflowDocumentSchema.parse(input);
}

const startBlock = () => block("start", "start", "Start", { inputs: [{ name: "marker", type: "string" }] });

/** start -> agent "Fast" -> agent "Slow" -> response: the kill tests' workflow. */
export function fastSlowDocument(): WorkflowDocument {
  return chain("Fast then slow", [
    startBlock(),
    block("fast", "agent", "Fast", { model: "openai/gpt-4o-mini", userPrompt: "FAST <start.marker>" }),
    block("slow", "agent", "Slow", { model: "openai/gpt-4o-mini", userPrompt: "SLOW <start.marker>" }),
    block("response", "response", "Response", { data: { fast: "<Fast.content>", slow: "<Slow.content>" } }),
  ]);
}

/** start -> response: as little work as a run can be. */
export function twoBlockDocument(): WorkflowDocument {
  return chain("Two blocks", [
    startBlock(),
    block("response", "response", "Response", { data: { marker: "<start.marker>" } }),
  ]);
}

/** start -> agent (`<prompt> <start.marker>`, answered at once unless the prompt says otherwise) -> response. */
export function agentDocument(prompt = "Echo"): WorkflowDocument {
  return chain("One agent", [
    startBlock(),
    block("agent", "agent", "Agent", { model: "openai/gpt-4o-mini", userPrompt: `${prompt} <start.marker>` }),
    block("response", "response", "Response", { data: { answer: "<Agent.content>" } }),
  ]);
}

/**
 * The code review as a retry cycle, with no model: Linter (a function) fails on `var`, its error
 * edge goes to Fix, which goes back to Linter (maxRetries 3); a clean lint goes on to Response.
 */
export function retryDocument(): WorkflowDocument {
  return workflowDocumentSchema.parse({
    name: "Lint until clean",
    blocks: [
      startBlock(),
      block("linter", "function", "Linter", {
        code: 'const code = String(<Fix.result ?? start.marker>);\nif (/\\bvar\\b/.test(code)) throw new Error("lint: var");\nreturn code;',
      }),
      block("fix", "function", "Fix", { code: 'return String(<start.marker>).replace(/\\bvar\\b/g, "let");' }),
      block("response", "response", "Response", { data: { linted: "<Linter.result>" } }),
    ],
    edges: [
      { id: "e0", source: "start", target: "linter" },
      { id: "e1", source: "linter", target: "fix", sourceHandle: "error" },
      { id: "e2", source: "fix", target: "linter", maxRetries: 3 },
      { id: "e3", source: "linter", target: "response" },
    ],
  } satisfies WorkflowDocumentInput);
}

/** start -> agent (`CALC <start.marker>`, its calculator needing approval) -> response: a run that parks for a person. */
export function approvalDocument(): WorkflowDocument {
  return chain("Careful maths", [
    startBlock(),
    block("agent", "agent", "Agent", {
      model: "openai/gpt-4o-mini",
      userPrompt: "CALC <start.marker>",
      tools: [{ type: "calculator", requireApproval: true }],
    }),
    block("response", "response", "Response", { data: { answer: "<Agent.content>" } }),
  ]);
}

// ---------------------------------------------------------------------------------------------
// The process under test

/** The real runtime over `repositories`, its models on the test LLM server (`runTimeoutMs`: its runs' time limit). */
export function testRuntime(
  repositories: Repositories,
  llm: TestLlmServer,
  options: { runTimeoutMs?: number } = {},
): Runtime {
  const env = testServerEnv(llm);
  return createRuntime({
    repositories,
    ...(options.runTimeoutMs === undefined ? {} : { runTimeoutMs: options.runTimeoutMs }),
    processEnv: (name) => env[name],
    knowledgeSearch: async () => {
      throw new Error("knowledge search is not part of these tests");
    },
  });
}

export interface WebProcess {
  runtime: Runtime;
  workers: RunWorkers;
  endpoints: RunEndpoints;
  stop(): Promise<void>;
}

/**
 * The test process as a web process: it stores runs and hands them over, streams and cancels
 * them, and never executes one (TRELLIS_WORKER=off).
 */
export async function startWebProcess(options: {
  repositories: Repositories;
  llm: TestLlmServer;
  url: string;
  singleProcess: boolean;
}): Promise<WebProcess> {
  const runtime = testRuntime(options.repositories, options.llm);
  const workers = await startRunWorkers({
    runs: runtime.runs,
    repositories: options.repositories,
    config: testWorkerConfig({ execute: false }),
    url: options.url,
    singleProcess: options.singleProcess,
  });
  const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: options.repositories }));
  return { runtime, workers, endpoints, stop: () => workers.stop() };
}

/** The run's event stream as a client reads it through GET /api/runs/:id/events (replayed, then live until it ends). */
export async function readStream(endpoints: RunEndpoints, workspaceId: string, runId: string): Promise<ParsedSse[]> {
  const response = await endpoints.events(
    new Request(`http://localhost/api/runs/${runId}/events`),
    { id: runId },
    testMember(workspaceId, "viewer"),
  );
  expect(response.status).toBe(200);
  return parseSse(await response.text());
}

// ---------------------------------------------------------------------------------------------
// Waiting and checking

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  intervalMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The stored run once it has ended (read from storage, wherever it executes). */
export async function waitForEnd(
  repositories: Repositories,
  workspaceId: string,
  runId: string,
  timeoutMs = 30_000,
): Promise<RunRecord> {
  let run = await repositories.runs.get(workspaceId, runId);
  await waitFor(
    `run ${runId} to end`,
    async () => ENDED.includes((run = await repositories.runs.get(workspaceId, runId)).status),
    timeoutMs,
    50,
  );
  // The row is stored before the run's last event (run-recorder.ts publishEnd): wait for that event too.
  await waitFor(
    `run ${runId}'s last event`,
    async () => (await repositories.runEvents.listAfter(runId, 0)).some((item) => isTerminalEvent(item.event)),
    timeoutMs,
    20,
  );
  return run;
}

/** A run's stored events, checked to be numbered 1..N with no gap and no repeat. */
export async function contiguousEvents(repositories: Repositories, runId: string): Promise<RunEvent[]> {
  const stored = await repositories.runEvents.listAfter(runId, 0);
  expect(
    stored.map((item) => item.seq),
    `events of run ${runId}`,
  ).toEqual(stored.map((_, index) => index + 1));
  return stored.map((item) => item.event);
}

/** Every span of the run has ended. */
export function expectNoSpanRunning(spans: readonly SpanRecord[], runId: string): void {
  expect(
    spans.filter((span) => span.status === "running").map((span) => `${span.kind} ${span.blockId} ${span.id}`),
    `spans of run ${runId} still running`,
  ).toEqual([]);
}

/** Median and maximum of some timings, for the report. */
export function figures(values: readonly number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0] ?? NaN, median: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted.at(-1) ?? NaN };
}
