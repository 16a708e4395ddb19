import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScheduleView } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { twoBlockDocument, waitFor } from "@/lib/runs/durable/__fixtures__/durable-kit";
import { openApiDocument } from "@/lib/system/openapi-document";
import { FIRES_KEPT, ScheduleClaims } from "./schedule-claims";
import { scheduleEndpoints, type ScheduleEndpoints } from "./schedule-endpoints";
import { ScheduleRepository } from "./schedule-repository";
import { createScheduleService } from "./schedule-service";
import { startScheduler, type Scheduler } from "./scheduler";
import { auditRequestsTo } from "@/lib/audit";

let kit: RunTestKit;
let endpoints: ScheduleEndpoints;
let claims: ScheduleClaims;
let ws: string;
let editor: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  endpoints = scheduleEndpoints(
    () => createScheduleService(new ScheduleRepository(kit.database.prisma)),
    auditRequestsTo(() => kit.database.prisma),
  );
  claims = new ScheduleClaims(kit.database.prisma);
  ws = await kit.database.createWorkspace();
  editor = testMember(ws, "editor");
});
afterAll(() => kit.close());

const json = (method: string, path: string, body?: unknown) =>
  new Request(`http://localhost${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function createWorkflow(options: { deployed: boolean }): Promise<string> {
  const document = twoBlockDocument();
  const workflow = await kit.database.repositories.workflows.create(ws, document);
  if (options.deployed)
    await kit.database.repositories.deployments.create(ws, workflow.id, {
      document,
      workflowVersion: 1,
      note: "",
      createdById: null,
    });
  return workflow.id;
}

async function createSchedule(workflowId: string, body: unknown, member = editor) {
  const response = await endpoints.create(
    json("POST", `/api/workflows/${workflowId}/schedules`, body),
    { id: workflowId },
    member,
  );
  return {
    status: response.status,
    body: (await response.json()) as ScheduleView & {
      error: { code: string; message: string; details: { path: string }[] };
    },
  };
}

async function listSchedules(workflowId: string): Promise<ScheduleView[]> {
  const response = await endpoints.list(
    new Request(`http://localhost/api/workflows/${workflowId}/schedules`),
    { id: workflowId },
    editor,
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { schedules: ScheduleView[] }).schedules;
}

const firesOf = (scheduleId: string) =>
  kit.database.prisma.scheduleFire.findMany({ where: { scheduleId }, orderBy: { fireAt: "asc" } });

/** The app's wiring (lib/runtime/start-runs.ts) over the test kit's runtime. */
function scheduler(workerId = "test-worker"): Scheduler {
  return startScheduler({
    claims,
    workerId,
    startRun: (schedule) =>
      kit.runtime.runs.start(schedule.workspaceId, schedule.workflowId, schedule.input, {
        target: "active-deployment",
        trigger: { kind: "schedule", scheduleId: schedule.id },
      }),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the schedule endpoints", () => {
  it("create a schedule answering its next five fire times in its zone, and list it", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const created = await createSchedule(workflowId, {
      cron: "0 9 * * 1-5",
      timezone: "Europe/Paris",
      input: { marker: "weekday" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      cron: "0 9 * * 1-5",
      timezone: "Europe/Paris",
      paused: false,
      lastFireAt: null,
      fires: [],
    });
    expect(created.body.nextRuns).toHaveLength(5);
    for (const at of created.body.nextRuns) {
      const local = new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Paris",
        hour: "2-digit",
        minute: "2-digit",
        weekday: "short",
      }).format(new Date(at));
      expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    }
    const listed = await listSchedules(workflowId);
    expect(listed.map((schedule) => [schedule.id, schedule.input])).toEqual([[created.body.id, { marker: "weekday" }]]);
    expect((await createSchedule(workflowId, { cron: "*/10 * * * * *" })).body.timezone).toBe("UTC");
  });

  it("answer 400 naming a malformed or never-firing expression or an unknown zone, and store nothing", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const malformed = await createSchedule(workflowId, { cron: "0 25 * * *" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: "invalid_request", details: [{ path: "cron" }] });
    expect(malformed.body.error.message).toContain('"0 25 * * *" is not valid');
    const never = await createSchedule(workflowId, { cron: "0 0 30 2 *" });
    expect(never.status).toBe(400);
    expect(never.body.error.message).toContain('"0 0 30 2 *" never fires');
    const zone = await createSchedule(workflowId, { cron: "0 9 * * *", timezone: "Europe/Atlantis" });
    expect(zone.status).toBe(400);
    expect(zone.body.error).toMatchObject({
      details: [{ path: "timezone" }],
      message: expect.stringContaining('"Europe/Atlantis"'),
    });
    const tooMany = await createSchedule(workflowId, { cron: "* * * * * * *" });
    expect(tooMany.body.error.message).toContain("has 7 fields");
    const misspelt = await createSchedule(workflowId, { cron: "* * * * *", timeZone: "UTC" });
    expect(misspelt.status).toBe(400);
    expect(JSON.stringify(misspelt.body)).toContain("timeZone");
    expect(await listSchedules(workflowId)).toEqual([]);
  });

  it("preview an expression's next five times, or the problem create would answer", async () => {
    const preview = await endpoints.preview(
      json("POST", "/api/schedules/preview", { cron: "30 2 * * *", timezone: "America/New_York" }),
      {},
      testMember(ws, "viewer"),
    );
    expect(preview.status).toBe(200);
    const { nextRuns } = (await preview.json()) as { nextRuns: string[] };
    expect(nextRuns).toHaveLength(5);
    expect(new Set(nextRuns).size).toBe(5);
    const bad = await endpoints.preview(json("POST", "/api/schedules/preview", { cron: "0 0 31 4 *" }), {}, editor);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('\\"0 0 31 4 *\\" never fires');
  });

  it("pause, resume and delete; viewers only read; another workspace's schedule is not found", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const { body: schedule } = await createSchedule(workflowId, { cron: "0 * * * *" });
    const patch = (paused: unknown, member = editor) =>
      endpoints.update(json("PATCH", `/api/schedules/${schedule.id}`, { paused }), { id: schedule.id }, member);
    const paused = await patch(true);
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ id: schedule.id, paused: true });
    expect((await listSchedules(workflowId))[0]).toMatchObject({ paused: true });
    expect(await (await patch(false)).json()).toMatchObject({ paused: false });
    expect((await patch("yes")).status).toBe(400);

    const viewer = testMember(ws, "viewer");
    expect((await patch(true, viewer)).status).toBe(403);
    expect((await createSchedule(workflowId, { cron: "0 * * * *" }, viewer)).status).toBe(403);
    const stranger = testMember(await kit.database.createWorkspace(), "owner");
    expect((await patch(true, stranger)).status).toBe(404);
    expect((await createSchedule(workflowId, { cron: "0 * * * *" }, stranger)).status).toBe(404);
    expect(
      (await endpoints.remove(json("DELETE", `/api/schedules/${schedule.id}`), { id: schedule.id }, stranger)).status,
    ).toBe(404);

    const removed = await endpoints.remove(
      json("DELETE", `/api/schedules/${schedule.id}`),
      { id: schedule.id },
      editor,
    );
    expect(removed.status).toBe(204);
    expect(await listSchedules(workflowId)).toEqual([]);
    expect(
      (await endpoints.remove(json("DELETE", `/api/schedules/${schedule.id}`), { id: schedule.id }, editor)).status,
    ).toBe(404);
  });
});

describe("the OpenAPI document", () => {
  it("describes what the schedule endpoints really answer", async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    const schemas = openApiDocument().components.schemas;
    ajv.addSchema({
      $id: "components",
      $defs: JSON.parse(JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"components#/$defs/')) as object,
    });
    const expectValid = (name: string, body: unknown) => {
      const validate = ajv.getSchema(`components#/$defs/${name}`)!;
      expect(validate(body), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const workflowId = await createWorkflow({ deployed: true });
    const created = await createSchedule(workflowId, { cron: "*/10 * * * * *", input: { marker: "doc" } });
    expectValid("Schedule", created.body);
    await claims.claim(created.body.id, new Date(Date.now() + 60_000), { missed: true, claimedBy: "doc" });
    const page = await endpoints.list(
      new Request(`http://localhost/api/workflows/${workflowId}/schedules`),
      { id: workflowId },
      editor,
    );
    const body = (await page.json()) as { schedules: ScheduleView[] };
    expect(body.schedules[0]!.fires).toHaveLength(1);
    expectValid("SchedulePage", body);
    expectValid(
      "SchedulePreview",
      await (await endpoints.preview(json("POST", "/api/schedules/preview", { cron: "0 * * * *" }), {}, editor)).json(),
    );
  });
});

describe("claiming a fire time", () => {
  it("is won by exactly one of several claimers at once, and by none while paused", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const { body: schedule } = await createSchedule(workflowId, { cron: "* * * * * *" });
    const fireAt = new Date(Math.ceil(Date.now() / 1_000) * 1_000 + 5_000);
    const contenders = [
      claims,
      new ScheduleClaims(kit.database.prisma),
      claims,
      new ScheduleClaims(kit.database.prisma),
    ];
    const won = await Promise.all(
      contenders.map((contender, index) =>
        contender.claim(schedule.id, fireAt, { missed: false, claimedBy: `w${index}` }),
      ),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
    // An earlier time than the last claimed one is not claimed either.
    expect(
      await claims.claim(schedule.id, new Date(fireAt.getTime() - 1_000), { missed: false, claimedBy: "late" }),
    ).toBe(false);
    const fires = await firesOf(schedule.id);
    expect(fires.map((fire) => [fire.fireAt.toISOString(), fire.claimedBy])).toEqual([
      [fireAt.toISOString(), `w${won.indexOf(true)}`],
    ]);

    await endpoints.update(
      json("PATCH", `/api/schedules/${schedule.id}`, { paused: true }),
      { id: schedule.id },
      editor,
    );
    expect(
      await claims.claim(schedule.id, new Date(fireAt.getTime() + 1_000), { missed: false, claimedBy: "w0" }),
    ).toBe(false);
  });
});

describe("old fires", () => {
  it("are pruned to the newest FIRES_KEPT of each schedule", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const { body: schedule } = await createSchedule(workflowId, { cron: "* * * * * *" });
    const start = Math.floor(Date.now() / 1_000) * 1_000 + 10_000;
    for (let index = 0; index < FIRES_KEPT + 5; index++) {
      expect(
        await claims.claim(schedule.id, new Date(start + index * 1_000), { missed: false, claimedBy: "prune" }),
      ).toBe(true);
    }
    await claims.prune();
    const kept = await firesOf(schedule.id);
    expect(kept).toHaveLength(FIRES_KEPT);
    expect(kept[0]!.fireAt.getTime()).toBe(start + 5_000);
    expect(kept.at(-1)!.fireAt.getTime()).toBe(start + (FIRES_KEPT + 4) * 1_000);
  });
});

describe("the scheduler", () => {
  it("fires a schedule whose last fire is hours old once at start, marked missed, for the latest time due", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const { body: schedule } = await createSchedule(workflowId, { cron: "0 * * * *", input: { marker: "late" } });
    const hoursAgo = new Date(Date.now() - 5 * 3_600_000);
    await kit.database.prisma.schedule.update({
      where: { id: schedule.id },
      data: { lastFireAt: hoursAgo, createdAt: hoursAgo },
    });

    // Two schedulers, as two processes coming up together.
    const running = [scheduler("first"), scheduler("second")];
    try {
      await waitFor(
        "the late fire's run",
        async () => (await firesOf(schedule.id)).some((fire) => fire.runId !== null),
        10_000,
      );
      await sleep(1_500);
    } finally {
      await Promise.all(running.map((each) => each.stop()));
    }
    const fires = await firesOf(schedule.id);
    const lastHour = new Date(Math.floor(fires[0]!.claimedAt.getTime() / 3_600_000) * 3_600_000);
    expect(fires.map((fire) => [fire.fireAt.toISOString(), fire.missed, fire.error])).toEqual([
      [lastHour.toISOString(), true, null],
    ]);
    const run = await kit.database.repositories.runs.get(ws, fires[0]!.runId!);
    expect(run).toMatchObject({ trigger: { kind: "schedule", scheduleId: schedule.id }, input: { marker: "late" } });
    expect(run.deploymentId).not.toBeNull();

    const [listed] = await listSchedules(workflowId);
    expect(listed).toMatchObject({
      lastFireAt: lastHour.toISOString(),
      fires: [{ fireAt: lastHour.toISOString(), missed: true, runId: run.id }],
    });
  });

  it("fires nothing for a paused schedule, and skips the times passed while paused when resumed", async () => {
    const workflowId = await createWorkflow({ deployed: true });
    const { body: schedule } = await createSchedule(workflowId, { cron: "* * * * * *" });
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000);
    await kit.database.prisma.schedule.update({
      where: { id: schedule.id },
      data: { lastFireAt: hoursAgo, paused: true },
    });

    const running = scheduler();
    try {
      await sleep(2_500);
      expect(await firesOf(schedule.id)).toEqual([]);
      await endpoints.update(
        json("PATCH", `/api/schedules/${schedule.id}`, { paused: false }),
        { id: schedule.id },
        editor,
      );
      await waitFor("fires after the resume", async () => (await firesOf(schedule.id)).length >= 2, 10_000);
    } finally {
      await running.stop();
    }
    const fires = await firesOf(schedule.id);
    expect(fires.filter((fire) => fire.missed)).toEqual([]);
    expect(fires.every((fire) => fire.runId !== null)).toBe(true);
  });

  it("records the error of a workflow with no deployment on each fire, once, and starts no run", async () => {
    const workflowId = await createWorkflow({ deployed: false });
    const { body: schedule } = await createSchedule(workflowId, { cron: "* * * * * *" });
    const startedAt = Date.now();
    const running = scheduler();
    try {
      await sleep(2_500);
    } finally {
      await running.stop();
    }
    const seconds = Math.floor((Date.now() - startedAt) / 1_000);
    const fires = await firesOf(schedule.id);
    // One fire per fire time, each recorded with its error: no retries in between.
    expect(fires.length).toBeGreaterThanOrEqual(seconds - 1);
    expect(fires.length).toBeLessThanOrEqual(seconds + 1);
    for (const fire of fires) {
      expect(fire.runId).toBeNull();
      expect(fire.error).toContain("has no deployment yet");
    }
    expect(await kit.database.repositories.runs.listByWorkflow(ws, workflowId)).toEqual([]);
    const [listed] = await listSchedules(workflowId);
    expect(listed!.fires[0]).toMatchObject({
      runId: null,
      runStatus: null,
      error: expect.stringContaining("deploy it"),
    });
  });
});
