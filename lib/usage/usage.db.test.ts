import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageReport, UsageRow } from "@/contract";
import type { Member } from "@/lib/auth";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { usage, usageSeeder } from "./__fixtures__/usage-seed";
import { usageEndpoints, type UsageEndpoints } from "./usage-endpoints";
import { createUsageService } from "./usage-service";

// Runs are stored as finished runs leave them (run repository create + update with usage), with
// chosen dollars and times; the sums are read through the endpoint, as a user reads them.
let database: TestDatabase;
let endpoints: UsageEndpoints;
let seed: ReturnType<typeof usageSeeder>;

let ws: string;
let viewer: Member;
const keys: Record<"checkout" | "batch", { id: string; prefix: string }> = {} as never;
const workflows: Record<"support" | "summarizer", string> = {} as never;
let otherWs: string;
let otherKey: { id: string; prefix: string };

const PERIOD = "from=2025-03-01&to=2025-03-03";
const day = (n: 1 | 2 | 3, time = "12:00:00.000") => `2025-03-0${n}T${time}Z`;
/** Dollars with up to 10 decimals that do not add up exactly in binary floating point. */
const dollars = (index: number) => Number((0.1 + index * 0.0000001234567 + (index % 3) * 0.2).toFixed(10));

beforeAll(async () => {
  database = await createTestDatabase();
  endpoints = usageEndpoints(() => createUsageService(database.prisma));
  seed = usageSeeder(database);

  ws = await database.createWorkspace("Usage");
  viewer = testMember(ws, "viewer");
  const user = await seed.createUser("Ada");
  keys.checkout = await seed.createApiKey(ws, user, "Checkout service");
  keys.batch = await seed.createApiKey(ws, user, "Nightly batch");
  workflows.support = await seed.createWorkflow(ws, "Support bot");
  workflows.summarizer = await seed.createWorkflow(ws, "Summarizer");

  // The checkout key: 12 runs over three days, each calling two models whose dollars add up to the run's.
  for (let index = 0; index < 12; index++) {
    const mini = dollars(index);
    const sonnet = Number((dollars(index + 50) / 3).toFixed(10));
    await seed.storeRun(ws, {
      workflowId: workflows.support,
      queuedAt: day(((index % 3) + 1) as 1 | 2 | 3, `0${(index % 9) + 1}:00:00.000`),
      trigger: { kind: "api", apiKeyId: keys.checkout.id },
      usage: usage(100 + index, 20, Number((mini + sonnet).toFixed(10))),
      calls: [
        { model: "openai/gpt-4o-mini", usage: usage(60 + index, 10, mini) },
        { model: "anthropic/claude-sonnet-4-5", usage: usage(40, 10, sonnet) },
      ],
    });
  }
  // The batch key: 8 runs on day 2, one model.
  for (let index = 0; index < 8; index++) {
    await seed.storeRun(ws, {
      workflowId: workflows.summarizer,
      queuedAt: day(2),
      trigger: { kind: "api", apiKeyId: keys.batch.id },
      usage: usage(500, 100, dollars(index + 100)),
      calls: [{ model: "openai/gpt-4o-mini", usage: usage(500, 100, dollars(index + 100)) }],
    });
  }
  // The batch key's agent called another workflow as a tool: the child's $0.05 is in the parent's $0.06.
  const parent = await seed.storeRun(ws, {
    workflowId: workflows.summarizer,
    queuedAt: day(3),
    trigger: { kind: "api", apiKeyId: keys.batch.id },
    usage: usage(300, 30, 0.06),
    calls: [{ model: "openai/gpt-4o-mini", usage: usage(100, 10, 0.01) }],
  });
  await seed.storeRun(ws, {
    workflowId: workflows.support,
    queuedAt: day(3, "12:00:01.000"),
    trigger: { kind: "tool" },
    parentRunId: parent,
    usage: usage(200, 20, 0.05),
    calls: [{ model: "openai/gpt-4o", usage: usage(200, 20, 0.05) }],
  });
  // Signed-in users in the editor, and a webhook: no API key.
  for (const n of [1, 1, 3] as const)
    await seed.storeRun(ws, { workflowId: workflows.support, queuedAt: day(n), usage: usage(10, 5, 0.001) });
  await seed.storeRun(ws, {
    workflowId: workflows.summarizer,
    queuedAt: day(2),
    trigger: { kind: "webhook", webhookId: "hook-1" },
    usage: usage(10, 5, 0.002),
  });

  // The period's edges: its first and last milliseconds count, the ones just outside do not.
  await seed.storeRun(ws, {
    workflowId: workflows.support,
    queuedAt: "2025-03-01T00:00:00.000Z",
    trigger: { kind: "api", apiKeyId: keys.checkout.id },
    usage: usage(1, 1, 0.0000000001),
  });
  await seed.storeRun(ws, {
    workflowId: workflows.support,
    queuedAt: "2025-03-03T23:59:59.999Z",
    trigger: { kind: "api", apiKeyId: keys.checkout.id },
    usage: usage(1, 1, 0.0000000002),
  });
  await seed.storeRun(ws, {
    workflowId: workflows.support,
    queuedAt: "2025-02-28T23:59:59.999Z",
    trigger: { kind: "api", apiKeyId: keys.checkout.id },
    usage: usage(1, 1, 1000),
  });
  await seed.storeRun(ws, {
    workflowId: workflows.support,
    queuedAt: "2025-03-04T00:00:00.000Z",
    trigger: { kind: "api", apiKeyId: keys.checkout.id },
    usage: usage(1, 1, 2000),
  });

  // Another workspace, the same period and models: never counted in the first.
  otherWs = await database.createWorkspace("Other");
  otherKey = await seed.createApiKey(otherWs, await seed.createUser("Bob"), "Other team's key");
  const otherWorkflow = await seed.createWorkflow(otherWs, "Other bot");
  for (const n of [1, 2, 3] as const) {
    await seed.storeRun(otherWs, {
      workflowId: otherWorkflow,
      queuedAt: day(n),
      trigger: { kind: "api", apiKeyId: otherKey.id },
      usage: usage(1000, 1000, 7),
      calls: [{ model: "openai/gpt-4o-mini", usage: usage(1000, 1000, 7) }],
    });
  }
});
afterAll(() => database?.close());

async function report(query: string, member = viewer): Promise<UsageReport> {
  const response = await endpoints.report(new Request(`http://localhost/api/usage?${query}`), {}, member);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as UsageReport;
}

const rowOf = (rows: UsageRow[], key: string | null, label?: string) => {
  const row = rows.find((candidate) => candidate.key === key && (label === undefined || candidate.label === label));
  expect(row, `row ${key} ${label ?? ""}`).toBeDefined();
  return row!;
};

/** Top-level runs of the period as stored, read one by one: what the sums must equal. */
async function storedRuns(workspaceId: string, where: { apiKeyId?: string | null } = {}) {
  const rows = await database.prisma.run.findMany({
    where: {
      workspaceId,
      parentRunId: null,
      queuedAt: { gte: new Date("2025-03-01T00:00:00Z"), lt: new Date("2025-03-04T00:00:00Z") },
      ...where,
    },
  });
  return {
    count: rows.length,
    dollars: rows.map((row) => row.costTotal!.toNumber()),
    tokens: rows.reduce((sum, row) => sum + row.totalTokens, 0),
  };
}

const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

describe("GET /api/usage by API key", () => {
  it("totals per API key equal the sum of those keys' runs' costs to 1e-9, and runs without a key group by how they started", async () => {
    const answer = await report(`${PERIOD}&groupBy=apiKey`);
    expect(answer).toMatchObject({
      from: "2025-03-01T00:00:00.000Z",
      to: "2025-03-04T00:00:00.000Z",
      groupBy: "apiKey",
    });

    for (const key of [keys.checkout, keys.batch]) {
      const stored = await storedRuns(ws, { apiKeyId: key.id });
      const row = rowOf(answer.rows, key.id);
      expect(row.runs).toBe(stored.count);
      expect(row.tokens.total).toBe(stored.tokens);
      expect(Math.abs(row.cost!.total - sumOf(stored.dollars))).toBeLessThan(1e-9);
      expect(Math.abs(row.cost!.input + row.cost!.output - row.cost!.total)).toBeLessThan(1e-9);
      expect(row).toMatchObject({ unpriced: false, estimated: false });
      expect(row.pricedCost).toEqual(row.cost);
    }
    // 12 runs, plus the two on the period's first and last milliseconds; not the two just outside.
    expect(rowOf(answer.rows, keys.checkout.id).runs).toBe(14);
    // 8 runs and the one that called a workflow as a tool (its child is inside its $0.06, not counted again).
    expect(rowOf(answer.rows, keys.batch.id).runs).toBe(9);

    expect(rowOf(answer.rows, keys.checkout.id).label).toBe(`Checkout service (${keys.checkout.prefix}…)`);
    const editor = rowOf(answer.rows, null, "No API key: Editor (signed-in users)");
    expect(editor).toMatchObject({ trigger: "editor", runs: 3 });
    expect(editor.cost!.total).toBeCloseTo(0.003, 12);
    expect(rowOf(answer.rows, null, "No API key: Webhook")).toMatchObject({
      trigger: "webhook",
      runs: 1,
      cost: { total: 0.002 },
    });
    expect(answer.rows).toHaveLength(4);

    // The rows add up to the period's totals, which are the stored runs' sum.
    const all = await storedRuns(ws);
    expect(answer.totals.runs).toBe(all.count);
    expect(sumOf(answer.rows.map((row) => row.runs))).toBe(all.count);
    expect(Math.abs(answer.totals.cost!.total - sumOf(all.dollars))).toBeLessThan(1e-9);
    expect(Math.abs(sumOf(answer.rows.map((row) => row.cost!.total)) - answer.totals.cost!.total)).toBeLessThan(1e-9);
    // Most expensive first.
    expect(answer.rows.map((row) => row.pricedCost.total)).toEqual(
      [...answer.rows.map((row) => row.pricedCost.total)].sort((a, b) => b - a),
    );
    // Never the key itself: only its id, name and prefix.
    expect(JSON.stringify(answer)).not.toMatch(/"hash"/);
  });

  it("never counts another workspace's runs, even when asked for its key or workflow", async () => {
    const answer = await report(`${PERIOD}&groupBy=apiKey`);
    expect(answer.rows.map((row) => row.key)).not.toContain(otherKey.id);
    const foreignKey = await report(`${PERIOD}&groupBy=apiKey&apiKeyId=${otherKey.id}`);
    expect(foreignKey.rows).toEqual([]);
    expect(foreignKey.totals).toMatchObject({ runs: 0, cost: { total: 0 }, tokens: { total: 0 } });

    const theirs = await report(`${PERIOD}&groupBy=apiKey`, testMember(otherWs, "viewer"));
    expect(theirs.rows.map((row) => [row.key, row.runs, row.cost?.total])).toEqual([[otherKey.id, 3, 21]]);
  });

  it("counts a period by when runs were asked for: its first and last milliseconds in, the ones just outside out", async () => {
    const edges = await report(`from=2025-03-01T00:00:00Z&to=2025-03-01T00:00:00.001Z&groupBy=apiKey`);
    expect(edges.rows.map((row) => [row.key, row.runs, row.cost?.total])).toEqual([
      [keys.checkout.id, 1, 0.0000000001],
    ]);
    const last = await report(`from=2025-03-03T23:59:59.999Z&to=2025-03-04T00:00:00Z&groupBy=apiKey`);
    expect(last.rows.map((row) => [row.key, row.runs, row.cost?.total])).toEqual([[keys.checkout.id, 1, 0.0000000002]]);
    const before = await report(`from=2025-02-28&to=2025-02-28&groupBy=apiKey`);
    expect(before.totals).toMatchObject({ runs: 1, cost: { total: 1000 } });
  });
});

describe("GET /api/usage by day, workflow, trigger and model", () => {
  it("by day: one row per UTC day, oldest first, adding up to the totals", async () => {
    const answer = await report(`${PERIOD}&groupBy=day`);
    expect(answer.rows.map((row) => row.key)).toEqual(["2025-03-01", "2025-03-02", "2025-03-03"]);
    expect(answer.rows.map((row) => row.label)).toEqual(["2025-03-01", "2025-03-02", "2025-03-03"]);
    // Day 1: 4 checkout runs, 2 editor runs and the first millisecond's run.
    expect(answer.rows.map((row) => row.runs)).toEqual([7, 4 + 8 + 1, 4 + 1 + 1 + 1]);
    const dayOne = await database.prisma.run.findMany({
      where: {
        workspaceId: ws,
        queuedAt: { gte: new Date("2025-03-01T00:00:00Z"), lt: new Date("2025-03-02T00:00:00Z") },
      },
    });
    expect(Math.abs(answer.rows[0]!.cost!.total - sumOf(dayOne.map((run) => run.costTotal!.toNumber())))).toBeLessThan(
      1e-9,
    );
    expect(Math.abs(sumOf(answer.rows.map((row) => row.cost!.total)) - answer.totals.cost!.total)).toBeLessThan(1e-9);
  });

  it("by workflow and by trigger: named for people; filters narrow the runs counted", async () => {
    const byWorkflow = await report(`${PERIOD}&groupBy=workflow`);
    expect(byWorkflow.rows.map((row) => row.label).sort()).toEqual(["Summarizer", "Support bot"]);
    expect(rowOf(byWorkflow.rows, workflows.summarizer).runs).toBe(8 + 1 + 1);

    const byTrigger = await report(`${PERIOD}&groupBy=trigger`);
    expect(Object.fromEntries(byTrigger.rows.map((row) => [row.key, [row.label, row.runs]]))).toEqual({
      api: ["API", 12 + 2 + 8 + 1],
      editor: ["Editor (signed-in users)", 3],
      webhook: ["Webhook", 1],
    });

    const filtered = await report(`${PERIOD}&groupBy=trigger&workflowId=${workflows.summarizer}&trigger=api`);
    expect(filtered.rows.map((row) => [row.key, row.runs])).toEqual([["api", 9]]);
    const oneKey = await report(`${PERIOD}&groupBy=workflow&apiKeyId=${keys.checkout.id}`);
    expect(oneKey.rows.map((row) => [row.label, row.runs])).toEqual([["Support bot", 14]]);
  });

  it("by model: sums the model calls, a run using two models counts in both, a tool's child run counts under its caller", async () => {
    const answer = await report(`${PERIOD}&groupBy=model`);
    expect(answer.rows.map((row) => row.key).sort()).toEqual([
      "anthropic/claude-sonnet-4-5",
      "openai/gpt-4o",
      "openai/gpt-4o-mini",
    ]);
    const spans = await database.prisma.span.findMany({ where: { kind: "model", run: { workspaceId: ws } } });
    for (const row of answer.rows) {
      const calls = spans.filter((span) => span.model === row.key);
      expect(Math.abs(row.cost!.total - sumOf(calls.map((span) => span.costTotal!.toNumber())))).toBeLessThan(1e-9);
      expect(row.tokens.total).toBe(sumOf(calls.map((span) => span.totalTokens!)));
    }
    // gpt-4o-mini: 12 checkout runs, 8 batch runs and the tool's caller; sonnet: the 12 checkout runs.
    expect(rowOf(answer.rows, "openai/gpt-4o-mini").runs).toBe(21);
    expect(rowOf(answer.rows, "anthropic/claude-sonnet-4-5").runs).toBe(12);
    expect(rowOf(answer.rows, "openai/gpt-4o")).toMatchObject({ runs: 1, cost: { total: 0.05 } });
    // Filtering by key keeps the child run's call, under the key of the run that called it.
    const batch = await report(`${PERIOD}&groupBy=model&apiKeyId=${keys.batch.id}`);
    expect(rowOf(batch.rows, "openai/gpt-4o").runs).toBe(1);
    // The models' dollars add up to the runs' where every dollar was spent on a model call (the checkout key's runs).
    const checkout = await report(
      `from=2025-03-01T01:00:00Z&to=2025-03-03T23:00:00Z&groupBy=model&apiKeyId=${keys.checkout.id}`,
    );
    expect(Math.abs(sumOf(checkout.rows.map((row) => row.cost!.total)) - checkout.totals.cost!.total)).toBeLessThan(
      1e-9,
    );
  });
});

describe("GET /api/usage with missing prices and estimates", () => {
  it("marks a group unpriced (cost null) when any run in it has no price, keeps what is priced, and carries estimates", async () => {
    const workspaceId = await database.createWorkspace("Prices");
    const key = await seed.createApiKey(workspaceId, await seed.createUser("Cy"), "Local models");
    const workflowId = await seed.createWorkflow(workspaceId, "Mixed");
    const trigger = { kind: "api" as const, apiKeyId: key.id };
    await seed.storeRun(workspaceId, {
      workflowId,
      queuedAt: day(1),
      trigger,
      usage: usage(10, 10, 0.25),
      calls: [{ model: "openai/gpt-4o", usage: usage(10, 10, 0.25) }],
    });
    await seed.storeRun(workspaceId, {
      workflowId,
      queuedAt: day(1),
      trigger,
      usage: usage(10, 10, null),
      calls: [{ model: "openai-compatible/local", usage: usage(10, 10, null) }],
    });
    await seed.storeRun(workspaceId, { workflowId, queuedAt: day(2), usage: usage(5, 5, 0.5, { estimated: true }) });
    const member = testMember(workspaceId, "viewer");

    const byKey = await report(`${PERIOD}&groupBy=apiKey`, member);
    expect(rowOf(byKey.rows, key.id)).toMatchObject({
      runs: 2,
      cost: null,
      unpriced: true,
      estimated: false,
      pricedCost: { total: 0.25 },
    });
    expect(rowOf(byKey.rows, null)).toMatchObject({ runs: 1, cost: { total: 0.5 }, unpriced: false, estimated: true });
    expect(byKey.totals).toMatchObject({
      runs: 3,
      cost: null,
      unpriced: true,
      estimated: true,
      pricedCost: { total: 0.75 },
    });

    const byModel = await report(`${PERIOD}&groupBy=model`, member);
    expect(rowOf(byModel.rows, "openai/gpt-4o")).toMatchObject({ cost: { total: 0.25 }, unpriced: false });
    expect(rowOf(byModel.rows, "openai-compatible/local")).toMatchObject({
      cost: null,
      unpriced: true,
      tokens: { total: 20 },
    });

    const byDay = await report(`${PERIOD}&groupBy=day`, member);
    expect(byDay.rows.map((row) => [row.key, row.unpriced, row.estimated])).toEqual([
      ["2025-03-01", true, false],
      ["2025-03-02", false, true],
    ]);
  });
});
