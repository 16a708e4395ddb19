import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatBudgetAmount,
  workflowDocumentSchema,
  type ApiRun,
  type BudgetsResponse,
  type WorkflowDocumentInput,
} from "@/contract";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { runEndpoints } from "@/lib/runs/run-endpoints";
import { createRuntime } from "@/lib/runtime/runtime";
import { resolvePricing } from "@/providers/pricing";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { budgetEndpoints } from "./budget-endpoints";
import { createBudgetService } from "./budget-service";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Budgets through the real runtime and the run endpoints, against the test LLM server: every
 * model call it answers reports 1,000 prompt and 10,000 completion tokens of openai/gpt-4o-mini,
 * and each agent allows 10,000 output tokens, so a call's worst case is a little under what it
 * really costs and a cap can be set to allow exactly N calls.
 */

let database: TestDatabase;
let llm: TestLlmServer;
/** How long each answer takes to stream (the parallel test keeps calls in flight together). */
let answerDelayMs = 0;

const MODEL = "openai/gpt-4o-mini";
const USAGE = { prompt: 1_000, completion: 10_000 };
const prices = resolvePricing(MODEL)!.prices;
/** What one answered call costs. */
const CALL_COST = (USAGE.prompt * prices.input + USAGE.completion * prices.output) / 1e6;
/** The output part of a call's worst case (its prompt adds a few dozen tokens at the input price). */
const WORST_OUTPUT = (USAGE.completion * prices.output) / 1e6;
/** A cap that allows exactly `calls` calls: the next one's worst case would cross it. */
const capFor = (calls: number) => Number((calls * CALL_COST + WORST_OUTPUT - CALL_COST / 2).toFixed(8));

beforeAll(async () => {
  database = await createTestDatabase();
  // Every call answered the same way, so a stopped run leaves nothing queued for the next test.
  llm = await startTestLlmServer({
    defaultResponder: () => ({
      kind: "text",
      text: "A line.",
      usage: USAGE,
      chunks: ["A ", "line."],
      delayMs: answerDelayMs,
    }),
  });
});

afterAll(async () => {
  await llm?.close();
  await database?.close();
});

function runtime() {
  const env = testServerEnv(llm);
  return createRuntime({
    repositories: database.repositories,
    knowledgeSearch: async () => ({ results: [] }) as never,
    processEnv: (name) => env[name],
  });
}

const at = (x: number, parentId: string | null = null) => ({ position: { x, y: 0 }, parentId, enabled: true });
const agent = (id: string, name: string, parentId: string | null) => ({
  id,
  type: "agent",
  name,
  ...at(200, parentId),
  config: { model: MODEL, userPrompt: "Write one line.", maxTokens: USAGE.completion },
});

/** A loop of `count` agent calls, with an optional cap per run. */
function loopWorkflow(count: number, maxCostPerRun?: number): WorkflowDocumentInput {
  return {
    name: "Loop of writers",
    ...(maxCostPerRun === undefined ? {} : { settings: { budget: { maxCostPerRun } } }),
    blocks: [
      { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
      { id: "each", type: "loop", name: "Each", ...at(100), config: { kind: "for", count } },
      agent("writer", "Writer", "each"),
    ],
    edges: [
      { id: "e1", source: "start", target: "each" },
      { id: "e2", source: "each", target: "writer", sourceHandle: "body" },
    ],
  };
}

/** `branches` agents at once in a parallel container. */
function parallelWorkflow(branches: number, maxCostPerRun: number): WorkflowDocumentInput {
  return {
    name: "Parallel writers",
    settings: { budget: { maxCostPerRun } },
    blocks: [
      { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
      { id: "fan", type: "parallel", name: "Fan", ...at(100), config: { kind: "count", count: branches } },
      agent("writer", "Writer", "fan"),
    ],
    edges: [
      { id: "e1", source: "start", target: "fan" },
      { id: "e2", source: "fan", target: "writer", sourceHandle: "body" },
    ],
  };
}

async function start(
  workspaceId: string,
  workflowId: string,
  body: Record<string, unknown>,
  member: Member = testMember(workspaceId),
) {
  const endpoints = runEndpoints(() => ({ runs: runtime().runs, repositories: database.repositories }));
  return endpoints.start(
    new Request("http://localhost/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { id: workflowId },
    member,
  );
}

async function runToEnd(
  workspaceId: string,
  workflowId: string,
  body: Record<string, unknown> = {},
  member?: Member,
): Promise<ApiRun> {
  const response = await start(workspaceId, workflowId, { ...body, wait: true }, member);
  expect(response.status).toBe(200);
  return (await response.json()) as ApiRun;
}

async function newWorkflow(document: WorkflowDocumentInput) {
  const workspaceId = await database.createWorkspace();
  const workflow = await database.repositories.workflows.create(workspaceId, workflowDocumentSchema.parse(document));
  return { workspaceId, workflowId: workflow.id };
}

/** Model requests the test server receives while `work` runs. */
async function requestsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = llm.requests.length;
  await work();
  return llm.requests.length - before;
}

async function putBudgets(workspaceId: string, body: unknown, member: Member = testMember(workspaceId, "admin")) {
  const endpoints = budgetEndpoints(
    () => createBudgetService(database.prisma, database.repositories.budgets),
    auditRequestsTo(() => database.prisma),
  );
  return endpoints.update(
    new Request("http://localhost/api/budgets", {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    {},
    member,
  );
}

describe("a budget per run", () => {
  it("stops a loop of agent calls before the call that would cross the cap: the server never sees it", async () => {
    const cap = capFor(3);
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(10, cap));
    let run: ApiRun | undefined;
    const made = await requestsDuring(async () => (run = await runToEnd(workspaceId, workflowId)));

    expect(made).toBe(3);
    expect(run!.status).toBe("failed");
    expect(run!.error?.code).toBe("budget_exceeded");
    expect(run!.error?.message).toContain("Block 'Writer' was stopped before calling openai/gpt-4o-mini");
    expect(run!.error?.message).toContain(
      `${formatBudgetAmount(3 * CALL_COST)} spent of the workflow's budget per run of ${formatBudgetAmount(cap)}`,
    );
    expect(run!.budget).toEqual({ maxCost: cap, source: "workflow" });
    // What the three calls cost is the run's cost, under the cap.
    expect(run!.cost?.total).toBeCloseTo(3 * CALL_COST, 10);
    expect(run!.cost!.total).toBeLessThanOrEqual(cap);
  });

  it("lets a run under its cap finish", async () => {
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(2, capFor(3)));
    const run = await runToEnd(workspaceId, workflowId);
    expect(run.status).toBe("succeeded");
    expect(run.cost?.total).toBeCloseTo(2 * CALL_COST, 10);
  });

  it("takes a request's cap when it is lower than the workflow's, and says so", async () => {
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(10, 1));
    const response = await start(workspaceId, workflowId, { budget: { maxCost: capFor(1) } });
    expect(response.status).toBe(202);
    const { runId, budget } = (await response.json()) as { runId: string; budget: unknown };
    expect(budget).toEqual({ maxCost: capFor(1), source: "request" });
    const run = await runtime().runs.liveRun(runId)?.done;
    const stored = run ?? (await waitForEnd(workspaceId, runId));
    expect(stored.status).toBe("failed");
    expect(stored.error?.message).toContain(`of this run's budget of ${formatBudgetAmount(capFor(1))}`);
    expect(stored.cost?.total).toBeCloseTo(CALL_COST, 10);
  });

  it("keeps the workflow's cap when a request asks for more, and says which applied", async () => {
    const cap = capFor(1);
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(3, cap));
    const run = await runToEnd(workspaceId, workflowId, { budget: { maxCost: 5 } });
    expect(run.budget).toEqual({ maxCost: cap, source: "workflow", requested: 5 });
    expect(run.error?.code).toBe("budget_exceeded");
    expect(run.cost?.total).toBeCloseTo(CALL_COST, 10);
  });

  it("does not let parallel branches overshoot together: calls in flight hold their worst case", async () => {
    // Room for two worst cases at once, not three.
    const cap = Number(((2 * (WORST_OUTPUT + CALL_COST)) / 2 + WORST_OUTPUT / 2).toFixed(8));
    const { workspaceId, workflowId } = await newWorkflow(parallelWorkflow(4, cap));
    answerDelayMs = 200;
    let run: ApiRun | undefined;
    const made = await requestsDuring(async () => (run = await runToEnd(workspaceId, workflowId)));
    answerDelayMs = 0;
    expect(made).toBeLessThanOrEqual(2);
    expect(run!.error?.code).toBe("budget_exceeded");
    expect(run!.error?.message).toContain("held by calls in progress");
    expect(run!.cost?.total ?? 0).toBeLessThanOrEqual(cap);
  });

  it("refuses a negative or non-numeric cap, naming the field", async () => {
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(1));
    const negative = await start(workspaceId, workflowId, { budget: { maxCost: -1 } });
    expect(negative.status).toBe(400);
    const body = (await negative.json()) as {
      error: { code: string; details: Array<{ path: string; message: string }> };
    };
    expect(body.error.details).toContainEqual({ path: "budget.maxCost", message: "must be zero or more (US dollars)" });
    const text = await start(workspaceId, workflowId, { budget: { maxCost: "ten" } });
    expect(text.status).toBe(400);
    expect(((await text.json()) as typeof body).error.details[0]).toMatchObject({
      path: "budget.maxCost",
      message: "must be a number of US dollars",
    });
    const document = workflowDocumentSchema.safeParse({
      ...loopWorkflow(1),
      settings: { budget: { maxCostPerRun: -0.5 } },
    });
    expect(document.success).toBe(false);
    expect(document.error?.issues[0]?.path).toEqual(["settings", "budget", "maxCostPerRun"]);
  });
});

describe("a workflow run by another", () => {
  it("spends against its caller's cap: the child's loop stops before the call that would cross it, and both runs fail", async () => {
    const workspaceId = await database.createWorkspace();
    const child = await database.repositories.workflows.create(
      workspaceId,
      workflowDocumentSchema.parse(loopWorkflow(10)),
    );
    const cap = capFor(2);
    const parent = await database.repositories.workflows.create(
      workspaceId,
      workflowDocumentSchema.parse({
        name: "Caller",
        settings: { budget: { maxCostPerRun: cap } },
        blocks: [
          { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
          { id: "call", type: "workflow", name: "Run writers", ...at(200), config: { workflowId: child.id } },
        ],
        edges: [{ id: "e1", source: "start", target: "call" }],
      }),
    );
    let run: ApiRun | undefined;
    const made = await requestsDuring(async () => (run = await runToEnd(workspaceId, parent.id)));
    expect(made).toBe(2);
    expect(run!.error?.code).toBe("budget_exceeded");
    expect(run!.error?.message).toContain(
      `${formatBudgetAmount(2 * CALL_COST)} spent of the workflow's budget per run of ${formatBudgetAmount(cap)}`,
    );
    const [listed] = await database.repositories.runs.listByWorkflow(workspaceId, child.id);
    const childRun = await database.repositories.runs.get(workspaceId, listed!.id);
    expect(childRun.status).toBe("failed");
    expect(childRun.error?.code).toBe("budget_exceeded");
  });
});

describe("monthly caps", () => {
  it("stop a run once the workspace's month would go past its cap", async () => {
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(2));
    expect((await runToEnd(workspaceId, workflowId)).status).toBe("succeeded");
    // Two calls spent this month; the cap leaves room for one more.
    const cap = Number((2 * CALL_COST + capFor(1)).toFixed(8));
    const response = await putBudgets(workspaceId, { workspace: { monthlyCap: cap } });
    expect(response.status).toBe(200);
    const budgets = (await response.json()) as BudgetsResponse;
    expect(budgets.workspace.monthlyCap).toBe(cap);
    expect(budgets.workspace.spentThisMonth).toBeCloseTo(2 * CALL_COST, 10);

    let run: ApiRun | undefined;
    const made = await requestsDuring(async () => (run = await runToEnd(workspaceId, workflowId)));
    expect(made).toBe(1);
    expect(run!.error?.code).toBe("budget_exceeded");
    expect(run!.error?.message).toContain(
      `${formatBudgetAmount(3 * CALL_COST)} spent this month of the workspace's monthly budget of ${formatBudgetAmount(cap)}`,
    );
  });

  it("stop the runs an API key starts once its month would go past its cap, and leave other runs alone", async () => {
    const { workspaceId, workflowId } = await newWorkflow(loopWorkflow(2));
    const user = await database.prisma.user.create({
      data: { id: `kay-${workspaceId}`, name: "Kay", email: `kay-${workspaceId}@example.com` },
    });
    const key = await database.prisma.apiKey.create({
      data: { workspaceId, userId: user.id, name: "CI", prefix: "trl_ci", hash: `hash-${workspaceId}` },
    });
    expect((await putBudgets(workspaceId, { apiKeys: { [key.id]: capFor(1) } })).status).toBe(200);
    const viaKey: Member = {
      userId: user.id,
      email: user.email,
      name: user.name,
      via: "api-key",
      apiKeyId: key.id,
      keyWorkspaceId: workspaceId,
      workspace: { id: workspaceId, role: "editor" },
    };

    const stopped = await runToEnd(workspaceId, workflowId, {}, viaKey);
    expect(stopped.error?.code).toBe("budget_exceeded");
    expect(stopped.error?.message).toContain(`of the API key's monthly budget of ${formatBudgetAmount(capFor(1))}`);

    expect((await runToEnd(workspaceId, workflowId)).status).toBe("succeeded");
  });

  it("are refused when negative or not numbers, and an unknown API key is not found", async () => {
    const workspaceId = await database.createWorkspace();
    const negative = await putBudgets(workspaceId, { workspace: { monthlyCap: -5 } });
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { error: { details: unknown[] } }).error.details).toContainEqual({
      path: "workspace.monthlyCap",
      message: "must be zero or more (US dollars)",
    });
    const text = await putBudgets(workspaceId, { apiKeys: { abc: "lots" } });
    expect(text.status).toBe(400);
    expect((await putBudgets(workspaceId, { apiKeys: { "no-such-key": 3 } })).status).toBe(404);
    expect(
      (await putBudgets(workspaceId, { workspace: { monthlyCap: 3 } }, testMember(workspaceId, "editor"))).status,
    ).toBe(403);
  });
});

async function waitForEnd(workspaceId: string, runId: string) {
  for (;;) {
    const run = await database.repositories.runs.get(workspaceId, runId);
    if (run.status === "succeeded" || run.status === "failed" || run.status === "cancelled") return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
