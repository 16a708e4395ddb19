import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  datasetSchema,
  evaluationComparisonSchema,
  evaluationSchema,
  suiteSchema,
  workflowDocumentSchema,
  type DatasetSummary,
  type DeploymentInfo,
  type EvaluationComparison,
  type EvaluationView,
  type SuiteView,
  type UsageReport,
  type WorkflowDocumentInput,
} from "@/contract";
import { auditRequestsTo } from "@/lib/audit";
import { deploymentEndpoints } from "@/lib/deployments/deployment-endpoints";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { testMember } from "@/lib/http/test-members";
import { createScheduleService, ScheduleClaims, ScheduleRepository, startScheduler } from "@/lib/schedules";
import { usageEndpoints } from "@/lib/usage/usage-endpoints";
import { createUsageService } from "@/lib/usage/usage-service";
import { EvaluationRepository } from "./evaluation-repository";
import {
  answerWorkflow,
  createWorkflow,
  JUDGE_REASON,
  JUDGE_SCORE,
  json,
  read,
  startEvaluationKit,
  STRICT,
  type EvaluationKit,
} from "./__fixtures__/evaluation-kit";

/**
 * Evaluations end to end over the real runtime, a real database and the test LLM server: a prompt
 * change that makes 3 of 12 cases fail, the comparison that names those 3, the deploy gate that
 * refuses the change and an admin's override, test mode's simulated side effects, the cost sums
 * and the budget that stops an evaluation before the call that would cross it.
 */

let kit: EvaluationKit;
let target: Server;
/** What the API block's target received. */
const received: string[] = [];
let ws: string;
const editor = () => testMember(ws, "editor", { userId: "editor-user" });
const admin = () => testMember(ws, "admin", { userId: "admin-user" });

const QUESTIONS = Array.from(
  { length: 12 },
  (_, index) => `Question ${index + 1}${[2, 6, 10].includes(index) ? " #hard" : ""}`,
);
const HARD = QUESTIONS.filter((question) => question.includes("#hard"));

beforeAll(async () => {
  target = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.setHeader("content-type", "application/json");
    response.end('{"live":true}');
  });
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  kit = await startEvaluationKit({ allowHost: host, env: { ANTHROPIC_API_KEY: "" } });
  ws = await kit.database.createWorkspace();
});
afterAll(async () => {
  await new Promise((resolve) => target?.close(resolve));
  await kit?.close();
});

async function newDataset(workflowId: string, questions = QUESTIONS): Promise<string> {
  const { status, body } = await read<DatasetSummary>(
    await kit.datasets.create(
      json("POST", "/api/datasets", {
        name: "Questions",
        workflowId,
        cases: questions.map((question) => ({ input: { question }, expected: question })),
      }),
      {},
      editor(),
    ),
  );
  expect(status).toBe(201);
  return body.id;
}

async function newSuite(workflowId: string, body: Record<string, unknown>) {
  return read<SuiteView & { error: { message: string; details: { path: string }[] } }>(
    await kit.evaluations.createSuite(
      json("POST", `/api/workflows/${workflowId}/suites`, body),
      { id: workflowId },
      editor(),
    ),
  );
}

async function evaluate(workflowId: string, body: Record<string, unknown>): Promise<EvaluationView> {
  const { status, body: evaluation } = await read<EvaluationView>(
    await kit.evaluations.start(
      json("POST", `/api/workflows/${workflowId}/evaluations`, { ...body, wait: true }),
      { id: workflowId },
      editor(),
    ),
  );
  expect(status).toBe(200);
  return evaluation;
}

async function compare(before: string, after: string): Promise<EvaluationComparison> {
  const { status, body } = await read<EvaluationComparison>(
    await kit.evaluations.compare(
      new Request(`http://localhost/api/evaluations/${before}/compare/${after}`),
      { id: before, otherId: after },
      editor(),
    ),
  );
  expect(status).toBe(200);
  return body;
}

async function saveDraft(
  workflowId: string,
  change: (document: WorkflowDocumentInput & { settings?: Record<string, unknown> }) => void,
) {
  const stored = await kit.database.repositories.workflows.get(ws, workflowId);
  const document = answerWorkflow() as WorkflowDocumentInput & { settings?: Record<string, unknown> };
  document.settings = { ...stored.settings };
  document.blocks = structuredClone(stored.blocks) as WorkflowDocumentInput["blocks"];
  change(document);
  return kit.database.repositories.workflows.update(
    ws,
    workflowId,
    workflowDocumentSchema.parse(document),
    stored.version,
  );
}

const deployments = deploymentEndpoints(
  () => createDeploymentService(kit.database.repositories, undefined, kit.services.gate),
  auditRequestsTo(() => kit.database.prisma),
);

async function deploy(workflowId: string, body: Record<string, unknown>, member = editor()) {
  return read<DeploymentInfo & { error: { code: string; message: string } }>(
    await deployments.create(
      json("POST", `/api/workflows/${workflowId}/deployments`, body),
      { id: workflowId },
      member,
    ),
  );
}

describe("an evaluation of a prompt change", () => {
  let workflowId: string;
  let suiteId: string;
  let datasetId: string;
  let baseline: EvaluationView;
  let changed: EvaluationView;
  let activeBefore: string;

  beforeAll(async () => {
    workflowId = (await createWorkflow(kit, ws, answerWorkflow())).id;
    datasetId = await newDataset(workflowId);
    const suite = await newSuite(workflowId, {
      name: "Answers",
      datasetId,
      scorers: [{ type: "contains" }, { type: "maxCost", maxCost: 0.01, weight: 0.5 }],
      gate: { minPassRate: 0.9, maxRegressions: 0 },
    });
    expect(suite.status).toBe(201);
    suiteId = suite.body.id;
    const first = await deploy(workflowId, {});
    expect(first.status).toBe(201);
    activeBefore = first.body.id;
    baseline = await evaluate(workflowId, { suiteId, version: activeBefore });
    await saveDraft(workflowId, (document) => {
      (document.blocks![1]!.config as { systemPrompt: string }).systemPrompt = `${STRICT}: answer only easy questions.`;
    });
    changed = await evaluate(workflowId, { suiteId });
  });

  it("runs every case as an evaluation run in test mode, and scores it", async () => {
    expect(baseline).toMatchObject({
      status: "completed",
      version: activeBefore,
      datasetVersion: 1,
      test: true,
      progress: { done: 12, total: 12 },
    });
    expect(baseline.summary).toMatchObject({ passRate: 1, casesPassed: 12, passed: true, failures: [] });
    expect(baseline.summary!.scores).toEqual({ contains: 1, maxCost: 1 });
    for (const item of baseline.cases) {
      const run = await kit.database.repositories.runs.get(ws, item.runId!);
      expect(run.trigger.kind).toBe("evaluation");
      expect(run.deploymentId).toBe(activeBefore);
      expect(item.output).toBe(`Echo: ${item.input.question as string}`);
    }
  });

  it("totals exactly what its runs cost", async () => {
    for (const evaluation of [baseline, changed]) {
      let sum = 0;
      for (const item of evaluation.cases)
        sum += (await kit.database.repositories.runs.get(ws, item.runId!)).cost!.total;
      expect(sum).toBeGreaterThan(0);
      expect(Math.abs(evaluation.summary!.cost - sum)).toBeLessThan(1e-9);
      expect(Math.abs(evaluation.progress.cost - sum)).toBeLessThan(1e-9);
    }
  });

  it("reports the 3 cases the change broke as the 3 regressions, first", async () => {
    expect(changed.summary).toMatchObject({ casesPassed: 9, passed: false });
    expect(changed.summary!.failures[0]).toContain("pass rate 75% (9 of 12 cases) is below the required 90%");
    const comparison = await compare(baseline.id, changed.id);
    // The answers are what the OpenAPI description declares (the API client parses them with these).
    evaluationComparisonSchema.parse(comparison);
    evaluationSchema.parse(changed);
    suiteSchema.parse(
      (
        await read(
          await kit.evaluations.getSuite(
            new Request(`http://localhost/api/suites/${suiteId}`),
            { id: suiteId },
            editor(),
          ),
        )
      ).body,
    );
    datasetSchema.parse(
      (
        await read(
          await kit.datasets.get(
            new Request(`http://localhost/api/datasets/${datasetId}`),
            { id: datasetId },
            editor(),
          ),
        )
      ).body,
    );
    expect(comparison).toMatchObject({ regressed: 3, improved: 0, unchanged: 9 });
    expect(
      comparison.cases
        .slice(0, 3)
        .map((item) => item.input.question)
        .sort(),
    ).toEqual([...HARD].sort());
    expect(comparison.cases.slice(0, 3).every((item) => item.change === "regressed" && item.delta! < 0)).toBe(true);
    expect(comparison.cases[0]!.outputDiff).toMatchObject({ changed: true, kind: "text" });
    expect(comparison.cases[3]!.outputDiff).toEqual({ changed: false });
    // Three changes all one way are not significant on their own: 2 × (1/2)³.
    expect(comparison.signTest).toEqual({ n: 3, pValue: 0.25 });
    // Nor does the interval rule out no change at all.
    expect(comparison.bootstrap.low).toBeLessThan(0);
    expect(comparison.bootstrap.high).toBe(0);
  });

  it("leaves evaluation runs out of the usage totals unless asked for", async () => {
    const usage = usageEndpoints(() => createUsageService(kit.database.prisma));
    const report = async (query: string) =>
      (
        await read<UsageReport>(
          await usage.report(
            new Request(`http://localhost/api/usage?groupBy=workflow&workflowId=${workflowId}${query}`),
            {},
            editor(),
          ),
        )
      ).body;
    expect((await report("")).totals.runs).toBe(0);
    expect((await report("&includeEvaluations=true")).totals.runs).toBe(24);
  });

  it("gates the deploy: the draft that regresses is refused with the figures, an admin's override is recorded", async () => {
    await saveDraft(workflowId, (document) => {
      document.settings = { ...document.settings, requireEvaluation: suiteId };
    });
    const refused = await deploy(workflowId, { note: "stricter" });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("evaluation_failed");
    expect(refused.body.error.message).toContain("pass rate 75% (9 of 12 cases) is below the required 90%");
    expect(refused.body.error.message).toContain(
      "3 cases regress against the active deployment #1 (at most 0 allowed)",
    );
    expect((await kit.database.repositories.deployments.active(ws, workflowId))!.id).toBe(activeBefore);

    expect((await deploy(workflowId, { override: { note: "known refusals" } })).status).toBe(403);
    const overridden = await deploy(
      workflowId,
      { note: "stricter", override: { note: "hard questions are out of scope now" } },
      admin(),
    );
    expect(overridden.status).toBe(201);
    expect(overridden.body.gateOverride).toMatchObject({
      note: "hard questions are out of scope now",
      userId: "admin-user",
    });
    expect(overridden.body.gateOverride!.failures).toHaveLength(2);
    expect(overridden.body.evaluationId).toBeTruthy();
    expect((await kit.database.repositories.deployments.active(ws, workflowId))!.id).toBe(overridden.body.id);
    // The audit log names who deployed past the gate, their note and what the gate found; the refusals wrote nothing.
    const deploys = await kit.database.prisma.auditEntry.findMany({
      where: { workspaceId: ws, action: "workflow.deploy", objectId: workflowId },
      orderBy: { at: "desc" },
    });
    expect(deploys[0]).toMatchObject({
      actorId: "admin-user",
      summary: {
        after: {
          deploymentId: overridden.body.id,
          gateOverride: {
            note: "hard questions are out of scope now",
            failures: overridden.body.gateOverride!.failures,
          },
        },
      },
    });
    expect(deploys).toHaveLength(overridden.body.number);
  });

  it("refuses to delete a dataset a gate uses", async () => {
    const response = await read(
      await kit.datasets.remove(json("DELETE", `/api/datasets/${datasetId}`), { id: datasetId }, editor()),
    );
    expect(response.status).toBe(409);
  });
});

describe("scorers", () => {
  let workflowId: string;
  let datasetId: string;
  beforeAll(async () => {
    workflowId = (await createWorkflow(kit, ws, answerWorkflow())).id;
    datasetId = await newDataset(workflowId, QUESTIONS.slice(0, 2));
  });

  it("refuses a bad regular expression, a bad JSON Schema and a judge without its key at save", async () => {
    const regex = await newSuite(workflowId, {
      name: "x",
      datasetId,
      scorers: [{ type: "regex", pattern: "(unclosed" }],
    });
    expect(regex.status).toBe(400);
    expect(regex.body.error.details[0]!.path).toBe("scorers[0].pattern");
    const schema = await newSuite(workflowId, {
      name: "x",
      datasetId,
      scorers: [{ type: "jsonSchema", schema: { type: "text" } }],
    });
    expect(schema.status).toBe(400);
    expect(schema.body.error.details[0]!.path).toBe("scorers[0].schema");
    const judge = await newSuite(workflowId, {
      name: "x",
      datasetId,
      scorers: [{ type: "judge", model: "anthropic/claude-sonnet-4-5", rubric: "Is it right?" }],
    });
    expect(judge.status).toBe(400);
    expect(judge.body.error.message).toContain("ANTHROPIC_API_KEY");
  });

  it("scores with a judge, a similarity, a JSON Schema and a scoring workflow", async () => {
    const scorerWorkflow = await createWorkflow(kit, ws, {
      name: "Length scorer",
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: {
            inputs: [
              { name: "input", type: "object" },
              { name: "output", type: "string" },
              { name: "expected", type: "string" },
            ],
          },
        },
        {
          id: "response",
          type: "response",
          name: "Response",
          position: { x: 200, y: 0 },
          parentId: null,
          enabled: true,
          config: { data: { score: 0.25, reason: "scored by a workflow" } },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "response" }],
    });
    const suite = await newSuite(workflowId, {
      name: "All kinds",
      datasetId,
      passThreshold: 0.5,
      scorers: [
        { type: "judge", model: "openai/gpt-4o-mini", rubric: "Does it answer the question?" },
        { type: "similarity" },
        { type: "jsonSchema", schema: { type: "string", pattern: "^Echo" } },
        { type: "workflow", workflowId: scorerWorkflow.id },
        { type: "regex", pattern: "^echo:", flags: "i" },
      ],
    });
    expect(suite.status).toBe(201);
    const evaluation = await evaluate(workflowId, { suiteId: suite.body.id });
    const scores = Object.fromEntries(evaluation.cases[0]!.scores.map((score) => [score.scorer, score]));
    expect(scores.judge).toMatchObject({ score: JUDGE_SCORE, reason: JUDGE_REASON });
    expect(scores.similarity!.score).toBeGreaterThan(0.5);
    expect(scores.similarity!.score).toBeLessThan(1);
    expect(scores.jsonSchema!.score).toBe(1);
    expect(scores.workflow).toMatchObject({ score: 0.25, reason: "scored by a workflow" });
    expect(scores.regex!.score).toBe(1);
    expect(evaluation.cases[0]!.scoringCost).toBeGreaterThan(0);
    expect(evaluation.summary!.scoringCost).toBeGreaterThan(0);
  });
});

describe("test mode and budgets", () => {
  it("simulates side effects in test mode (the target sees nothing) and sends them when asked", async () => {
    const url = `http://${(target.address() as AddressInfo).address}:${(target.address() as AddressInfo).port}/orders`;
    const document = answerWorkflow();
    document.blocks!.splice(2, 0, {
      id: "api",
      type: "api",
      name: "Create Order",
      position: { x: 300, y: 0 },
      parentId: null,
      enabled: true,
      config: { url, method: "POST", body: { item: "<start.question>" } },
    });
    document.edges = [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "api" },
      { id: "e3", source: "api", target: "response" },
    ];
    const workflowId = (await createWorkflow(kit, ws, document)).id;
    const datasetId = await newDataset(workflowId, QUESTIONS.slice(0, 3));
    const suite = await newSuite(workflowId, { name: "Orders", datasetId, scorers: [{ type: "contains" }] });
    received.length = 0;
    const simulated = await evaluate(workflowId, { suiteId: suite.body.id });
    expect(simulated.progress.done).toBe(3);
    expect(received).toEqual([]);
    const live = await evaluate(workflowId, { suiteId: suite.body.id, test: false });
    expect(live.test).toBe(false);
    expect(received).toEqual(["POST /orders", "POST /orders", "POST /orders"]);
  });

  it("stops before the model call that would cross its budget, keeping the finished cases", async () => {
    const workflowId = (await createWorkflow(kit, ws, answerWorkflow())).id;
    const suite = await newSuite(workflowId, {
      name: "Budget",
      datasetId: await newDataset(workflowId),
      scorers: [{ type: "contains" }],
    });
    const calls = kit.llm.requests.length;
    const evaluation = await evaluate(workflowId, {
      suiteId: suite.body.id,
      concurrency: 1,
      budget: { maxCost: 0.0001 },
    });
    const scored = evaluation.cases.filter((item) => item.status === "scored");
    const notRun = evaluation.cases.filter((item) => item.status === "not_run");
    expect(evaluation.status).toBe("stopped");
    expect(evaluation.stopReason).toContain("the evaluation's budget of $0.0001");
    expect(scored.length).toBeGreaterThan(0);
    expect(notRun.length).toBeGreaterThan(0);
    expect(scored.length + notRun.length).toBe(12);
    // No model call was made for the case that would have crossed the cap.
    expect(kit.llm.requests.length - calls).toBe(scored.length);
    expect(evaluation.summary!.cost).toBeLessThanOrEqual(0.0001);
    expect(evaluation.summary!.casesNotRun).toBe(notRun.length);
    let sum = 0;
    for (const item of evaluation.cases)
      if (item.runId) sum += (await kit.database.repositories.runs.get(ws, item.runId)).cost?.total ?? 0;
    expect(Math.abs(evaluation.summary!.cost - sum)).toBeLessThan(1e-9);
  });

  it("refuses an evaluation of a suite of another workflow", async () => {
    const one = (await createWorkflow(kit, ws, answerWorkflow())).id;
    const other = (await createWorkflow(kit, ws, answerWorkflow())).id;
    const suite = await newSuite(one, {
      name: "Mine",
      datasetId: await newDataset(one, QUESTIONS.slice(0, 1)),
      scorers: [{ type: "exact" }],
    });
    const response = await kit.evaluations.start(
      json("POST", `/api/workflows/${other}/evaluations`, { suiteId: suite.body.id }),
      { id: other },
      editor(),
    );
    expect(response.status).toBe(404);
  });
});

describe("scheduled evaluations", () => {
  it("evaluates the active deployment over the suite at each fire, and records the evaluation on the fire", async () => {
    const workflowId = (await createWorkflow(kit, ws, answerWorkflow())).id;
    const suite = await newSuite(workflowId, {
      name: "Nightly",
      datasetId: await newDataset(workflowId, QUESTIONS.slice(0, 2)),
      scorers: [{ type: "contains" }],
    });
    const deployed = await deploy(workflowId, {});
    const schedules = createScheduleService(new ScheduleRepository(kit.database.prisma));
    const other = (await createWorkflow(kit, ws, answerWorkflow())).id;
    await expect(
      schedules.create(ws, other, { cron: "* * * * * *", timezone: "UTC", input: {}, suiteId: suite.body.id }),
    ).rejects.toThrow(/Suite/);
    const schedule = await schedules.create(ws, workflowId, {
      cron: "* * * * * *",
      timezone: "UTC",
      input: {},
      suiteId: suite.body.id,
    });
    expect(schedule.suiteId).toBe(suite.body.id);
    const scheduler = startScheduler({
      claims: new ScheduleClaims(kit.database.prisma),
      workerId: "evaluation-test",
      startRun: () => Promise.reject(new Error("a schedule of a suite starts no run")),
      startEvaluation: (active) =>
        kit.services.evaluations.startScheduled(active.workspaceId, active.workflowId, active.suiteId!),
    });
    let evaluationId: string | null = null;
    try {
      await expect
        .poll(
          async () => {
            const fire = await kit.database.prisma.scheduleFire.findFirst({
              where: { scheduleId: schedule.id, evaluationId: { not: null } },
            });
            evaluationId = fire?.evaluationId ?? null;
            return evaluationId;
          },
          { timeout: 15_000 },
        )
        .not.toBeNull();
    } finally {
      await kit.database.prisma.schedule.update({ where: { id: schedule.id }, data: { paused: true } });
      await scheduler.stop();
    }
    await expect
      .poll(async () => (await kit.services.evaluations.get(ws, evaluationId!)).status, { timeout: 30_000 })
      .toBe("completed");
    const evaluation = await kit.services.evaluations.get(ws, evaluationId!);
    expect(evaluation).toMatchObject({ version: deployed.body.id, test: true, progress: { done: 2, total: 2 } });
    // Every evaluation the schedule started ends before the database is closed.
    for (const fire of await kit.database.prisma.scheduleFire.findMany({
      where: { scheduleId: schedule.id, evaluationId: { not: null } },
    }))
      await expect
        .poll(async () => (await kit.services.evaluations.get(ws, fire.evaluationId!)).status, { timeout: 30_000 })
        .not.toBe("running");
  });
});

describe("an evaluation whose process stopped", () => {
  it("is ended when read: its unfinished cases not run, and the reason", async () => {
    const workflowId = (await createWorkflow(kit, ws, answerWorkflow())).id;
    const suite = await newSuite(workflowId, {
      name: "Stranded",
      datasetId: await newDataset(workflowId, QUESTIONS.slice(0, 2)),
      scorers: [{ type: "contains" }],
    });
    const repository = new EvaluationRepository(kit.database.prisma);
    const stored = (worker: string | null) =>
      repository.create(ws, {
        workflowId,
        suiteId: suite.body.id,
        datasetVersion: 1,
        target: "draft",
        workflowVersion: 1,
        test: true,
        concurrency: 1,
        maxCost: null,
        createdById: null,
        worker,
        cases: [
          { caseId: "one", position: 0, input: { question: "a" }, expected: "a" },
          { caseId: "two", position: 1, input: { question: "b" }, expected: "b" },
        ],
      });
    const gone = await stored("a-process-that-stopped");
    const alive = await stored("a-live-process");
    // Started by a process that executes no runs (in no workers table): nothing tells, so it is left running.
    const untold = await stored(null);
    await kit.database.prisma.worker.create({ data: { id: "a-live-process", host: "test", pid: 1 } });
    const ended = await kit.services.evaluations.get(ws, gone);
    expect(ended).toMatchObject({ status: "failed", stopReason: expect.stringContaining("stopped before it ended") });
    expect(ended.cases.map((item) => item.status)).toEqual(["not_run", "not_run"]);
    expect(ended.summary).toMatchObject({ passed: false, casesNotRun: 2 });
    // One its live process executes is left running, as the list shows it.
    const listed = await kit.services.evaluations.list(ws, workflowId);
    expect(listed.find((evaluation) => evaluation.id === alive)!.status).toBe("running");
    await kit.database.prisma.worker.delete({ where: { id: "a-live-process" } });
    const afterwards = await kit.services.evaluations.list(ws, workflowId);
    expect(afterwards.find((evaluation) => evaluation.id === alive)!.status).toBe("failed");
    expect((await kit.services.evaluations.get(ws, untold)).status).toBe("running");
  });
});
