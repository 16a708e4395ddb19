import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowDocument, WorkspaceRole } from "@/contract";
import { createApiKey, revokeApiKey } from "@/lib/auth";
import { createBudgetService } from "@/lib/budgets/budget-service";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { testMember } from "@/lib/http/test-members";
import { priceEndpoints } from "@/lib/prices/price-endpoints";
import { secretEndpoints } from "@/lib/secrets/secret-endpoints";
import { startCacheTestProcess, type CacheTestProcess } from "./__fixtures__/cache-test-process";
import { auditRequestsTo } from "@/lib/audit";

/**
 * Issue 32: runs' reads served from each process's memory, and never what a committed change
 * replaced. Two processes over one database (lib/cache/__fixtures__): `here` makes the changes,
 * both serve requests. On PostgreSQL `there` has its own client and LISTEN connection; on the
 * embedded database (one process by design) it hears nothing at all, so the API key's own read is
 * all that keeps it right, and it must be enough.
 */

let database: TestDatabase;
let here: CacheTestProcess;
let there: CacheTestProcess;
let workspaceId: string;
let ownerId: string;

const at = { x: 0, y: 0 };

/** Start -> Answer: the answer says which version ran, how long the TOKEN secret is, and calls no model. */
function answering(version: number): WorkflowDocument {
  return {
    name: "Cached",
    description: "",
    variables: {},
    settings: {},
    blocks: [
      { id: "start", type: "start", name: "Start", position: at, config: { inputs: [] } },
      {
        id: "measure",
        type: "function",
        name: "Measure",
        position: at,
        config: { code: `return { version: ${version}, tokenLength: {{TOKEN}}.length };` },
      },
      { id: "answer", type: "response", name: "Answer", position: at, config: { data: "<measure.result>" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "measure" },
      { id: "e2", source: "measure", target: "answer" },
    ],
  } as unknown as WorkflowDocument;
}

/** Start -> Echo (the offline model, priced by the workspace's override) -> Answer. */
function priced(): WorkflowDocument {
  return {
    name: "Priced",
    description: "",
    variables: {},
    settings: {},
    blocks: [
      { id: "start", type: "start", name: "Start", position: at, config: { inputs: [] } },
      {
        id: "echo",
        type: "agent",
        name: "Echo",
        position: at,
        config: { model: "offline/echo", userPrompt: "Say the same five words back" },
      },
      { id: "answer", type: "response", name: "Answer", position: at, config: { data: { text: "<echo.content>" } } },
    ],
    edges: [
      { id: "e1", source: "start", target: "echo" },
      { id: "e2", source: "echo", target: "answer" },
    ],
  } as unknown as WorkflowDocument;
}

async function makeMember(role: WorkspaceRole): Promise<string> {
  const id = randomUUID();
  await database.prisma.user.create({ data: { id, name: `User ${role}`, email: `${role}-${id}@example.com` } });
  await database.prisma.workspaceMember.create({ data: { workspaceId, userId: id, role } });
  return id;
}

const keyFor = async (userId: string) =>
  (await createApiKey(database.prisma, { userId, workspaceId }, { name: `key ${randomUUID()}` })).key;

async function deployed(document: WorkflowDocument): Promise<string> {
  const workflow = await here.repositories.workflows.create(workspaceId, document);
  await createDeploymentService(here.repositories, here.cache).deploy(workspaceId, workflow.id, {
    note: "",
    userId: null,
  });
  return workflow.id;
}

async function redeploy(workflowId: string, document: WorkflowDocument) {
  const stored = await here.repositories.workflows.get(workspaceId, workflowId);
  await here.repositories.workflows.update(workspaceId, workflowId, document, stored.version);
  return createDeploymentService(here.repositories, here.cache).deploy(workspaceId, workflowId, {
    note: "",
    userId: null,
  });
}

/** PUT /api/secrets/TOKEN on `here`, as its route serves it. */
async function setToken(value: string) {
  const request = new Request("http://localhost/api/secrets/TOKEN", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ value }),
  });
  const response = await secretEndpoints(
    () => here.repositories.secrets,
    auditRequestsTo(() => here.prisma),
    here.cache,
  ).put(request, { name: "TOKEN" }, testMember(workspaceId, "owner"));
  expect(response.status).toBe(204);
}

/** PUT /api/prices/offline/echo on `here`: dollars per million tokens in and out. */
async function priceEcho(perMillion: number) {
  const request = new Request("http://localhost/api/prices/offline/echo", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input: perMillion, output: perMillion }),
  });
  const endpoints = priceEndpoints(
    () => here.repositories.priceOverrides,
    async () => () => undefined,
    auditRequestsTo(() => here.prisma),
    here.cache,
  );
  const response = await endpoints.put(
    request,
    { model: "offline/echo" },
    testMember(workspaceId, "owner", { userId: ownerId }),
  );
  expect(response.status, await response.clone().text()).toBe(200);
}

/** PUT /api/budgets `{ workspace: { monthlyCap } }` on `here`. */
const capWorkspace = (monthlyCap: number | null) =>
  createBudgetService(here.prisma, here.repositories.budgets, undefined, here.cache).update(workspaceId, {
    workspace: { monthlyCap },
  });

interface Answered {
  status: string;
  output: unknown;
  cost: { total: number } | null;
  error: { code: string } | null;
}

async function run(process: CacheTestProcess, key: string, workflowId: string): Promise<Answered> {
  const response = await process.execute(key, workflowId);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Answered;
}

/** Waits until the process has heard the workspace's change (PostgreSQL's notification arrives after the commit). */
async function heard(process: CacheTestProcess, generationAtLeast: number) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const generation = process.cache.knownGeneration(workspaceId);
    if (generation !== undefined && generation >= generationAtLeast) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the process did not hear generation ${generationAtLeast}`);
}

const generationNow = async () =>
  Number((await database.prisma.cacheGeneration.findUnique({ where: { workspaceId } }))?.generation ?? 0);

beforeAll(async () => {
  database = await createTestDatabase();
  here = await startCacheTestProcess(database);
  there = await startCacheTestProcess(database);
  workspaceId = await database.createWorkspace();
  ownerId = await makeMember("owner");
  await setToken("four");
});

afterAll(async () => {
  await here?.close();
  await there?.close();
  await database?.close();
});

describe("API keys and members are read with every request, on every process", () => {
  it("a revoked key is refused by the next request, here and on another process", async () => {
    const workflowId = await deployed(answering(1));
    const made = await createApiKey(database.prisma, { userId: ownerId, workspaceId }, { name: "to revoke" });
    // Both processes served it, so whatever they cache for the workspace is warm.
    await run(here, made.key, workflowId);
    await run(there, made.key, workflowId);
    await revokeApiKey(here.prisma, { userId: ownerId, workspaceId }, made.id);
    for (const process of [there, here]) {
      const refused = await process.execute(made.key, workflowId);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    }
  });

  it("a key's creator made a viewer may no longer start runs with it; one removed from the workspace is refused", async () => {
    const workflowId = await deployed(answering(1));
    const editor = await makeMember("editor");
    const key = await keyFor(editor);
    await run(there, key, workflowId);
    await here.repositories.workspaces.changeRole(workspaceId, editor, "viewer", { userId: ownerId });
    expect((await there.execute(key, workflowId)).status).toBe(403);
    await here.repositories.workspaces.removeMember(workspaceId, editor, { userId: ownerId });
    expect((await there.execute(key, workflowId)).status).toBe(401);
    expect((await here.execute(key, workflowId)).status).toBe(401);
  });
});

describe("the workspace's generation", () => {
  it("moves with each committed change of cached data, and not with a rolled-back one or a draft's edit", async () => {
    const workflowId = await deployed(answering(1));
    const before = await generationNow();
    const stored = await here.repositories.workflows.get(workspaceId, workflowId);
    await here.repositories.workflows.update(workspaceId, workflowId, answering(3), stored.version);
    await expect(
      database.prisma.$transaction(async (tx) => {
        await tx.secret.deleteMany({ where: { workspaceId, name: "TOKEN" } });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await generationNow()).toBe(before);
    await setToken("four");
    expect(await generationNow()).toBe(before + 1);
  });
});

describe("deployments, secrets and prices: served from memory until a change commits", () => {
  it("serves a repeated run's deployment, secrets and prices from memory", async () => {
    const workflowId = await deployed(answering(1));
    const key = await keyFor(ownerId);
    await run(there, key, workflowId);
    const before = { ...there.cache.counts };
    await run(there, key, workflowId);
    // The active deployment, the secrets (one read serves their names and values), the price overrides and the budget caps.
    expect(there.cache.counts.hits - before.hits).toBeGreaterThanOrEqual(4);
    expect(there.cache.counts.misses).toBe(before.misses);
  });

  it("a new deployment is what the next run executes, on both processes; so is a rollback", async () => {
    const workflowId = await deployed(answering(1));
    const key = await keyFor(ownerId);
    expect((await run(here, key, workflowId)).output).toMatchObject({ version: 1 });
    expect((await run(there, key, workflowId)).output).toMatchObject({ version: 1 });
    const first = (await here.repositories.deployments.active(workspaceId, workflowId))!;
    await redeploy(workflowId, answering(2));
    expect((await run(there, key, workflowId)).output).toMatchObject({ version: 2 });
    expect((await run(here, key, workflowId)).output).toMatchObject({ version: 2 });
    await createDeploymentService(here.repositories, here.cache).activate(workspaceId, workflowId, first.id);
    expect((await run(there, key, workflowId)).output).toMatchObject({ version: 1 });
    expect((await run(here, key, workflowId)).output).toMatchObject({ version: 1 });
  });

  it("a rotated secret is what the next run reads, on both processes", async () => {
    const workflowId = await deployed(answering(1));
    const key = await keyFor(ownerId);
    await setToken("four");
    expect((await run(there, key, workflowId)).output).toMatchObject({ tokenLength: 4 });
    expect((await run(here, key, workflowId)).output).toMatchObject({ tokenLength: 4 });
    await setToken("twelve chars");
    expect((await run(there, key, workflowId)).output).toMatchObject({ tokenLength: 12 });
    expect((await run(here, key, workflowId)).output).toMatchObject({ tokenLength: 12 });
  });

  it("a changed price is what the next run's cost uses, on both processes", async () => {
    const workflowId = await deployed(priced());
    const key = await keyFor(ownerId);
    await priceEcho(1);
    const cheap = await run(there, key, workflowId);
    expect(cheap.cost!.total).toBeGreaterThan(0);
    expect((await run(here, key, workflowId)).cost!.total).toBeCloseTo(cheap.cost!.total, 12);
    await priceEcho(1_000);
    expect((await run(there, key, workflowId)).cost!.total).toBeCloseTo(cheap.cost!.total * 1_000, 9);
    expect((await run(here, key, workflowId)).cost!.total).toBeCloseTo(cheap.cost!.total * 1_000, 9);
  });

  it("a workspace cap set or removed holds the next run, on both processes", async () => {
    const workflowId = await deployed(priced());
    const key = await keyFor(ownerId);
    await priceEcho(1_000);
    await run(there, key, workflowId);
    await capWorkspace(0.000001);
    for (const process of [there, here])
      expect((await run(process, key, workflowId)).error?.code).toBe("budget_exceeded");
    await capWorkspace(null);
    for (const process of [there, here]) expect((await run(process, key, workflowId)).status).toBe("succeeded");
  });

  it("a run started without a key on the process that made the change (a hook, a schedule) sees it at once", async () => {
    const workflowId = await deployed(answering(1));
    const start = async () =>
      (await (await here.runtime.runs.start(workspaceId, workflowId, {}, { target: "active-deployment" })).done).output;
    await setToken("four");
    expect(await start()).toMatchObject({ version: 1, tokenLength: 4 });
    await setToken("seven c");
    expect(await start()).toMatchObject({ version: 1, tokenLength: 7 });
    await redeploy(workflowId, answering(2));
    expect(await start()).toMatchObject({ version: 2, tokenLength: 7 });
  });
});

describe.runIf(process.env.DATABASE_URL)("other processes hear changes through the run bus (PostgreSQL)", () => {
  it("a run started without a key on another process reads the new value once the change's notification arrived", async () => {
    const workflowId = await deployed(answering(1));
    const start = async () =>
      (await (await there.runtime.runs.start(workspaceId, workflowId, {}, { target: "active-deployment" })).done)
        .output;
    await setToken("four");
    expect(await start()).toMatchObject({ tokenLength: 4 });
    await setToken("nine char");
    await heard(there, await generationNow());
    expect(await start()).toMatchObject({ tokenLength: 9 });
  });

  it("a committed change is notified to every process with the workspace's new generation; a rolled-back one is not", async () => {
    const heardChanges: Array<{ kind: string; workspaceId?: string; generation?: number }> = [];
    const stop = there.bus.subscribe((signal) => signal.kind === "cache" && heardChanges.push(signal));
    try {
      await expect(
        database.prisma.$transaction(async (tx) => {
          await tx.secret.deleteMany({ where: { workspaceId, name: "TOKEN" } });
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      await setToken("four");
      const generation = await generationNow();
      await heard(there, generation);
      expect(heardChanges).toEqual([{ kind: "cache", workspaceId, generation }]);
    } finally {
      stop();
    }
  });

  it("while its listening connection is lost a process serves nothing from memory; listening again, it serves again", async () => {
    const workflowId = await deployed(answering(1));
    const key = await keyFor(ownerId);
    await setToken("four");
    await run(there, key, workflowId);
    expect(there.cache.serving).toBe(true);
    const lost = new Promise<void>((resolve) => there.bus.onLost(resolve));
    const back = new Promise<void>((resolve) => there.bus.onResync(resolve));
    // Ends every LISTEN connection of the test database (both processes'); each reconnects by itself.
    await database.prisma
      .$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'trellis-run-bus' AND datname = current_database()`;
    await lost;
    expect(there.cache.serving).toBe(false);
    // A change it cannot hear: a run started without a key still reads it, since nothing is served.
    await setToken("six ch");
    const bypassed = there.cache.counts.bypassed;
    const output = (
      await (
        await there.runtime.runs.start(workspaceId, workflowId, {}, { target: "active-deployment" })
      ).done
    ).output;
    expect(output).toMatchObject({ tokenLength: 6 });
    expect(there.cache.counts.bypassed).toBeGreaterThan(bypassed);
    await back;
    expect(there.cache.serving).toBe(true);
    await run(there, key, workflowId);
    const hits = there.cache.counts.hits;
    expect((await run(there, key, workflowId)).output).toMatchObject({ tokenLength: 6 });
    expect(there.cache.counts.hits).toBeGreaterThan(hits);
  });

  it("an executed run's reads: of those before it executes, only the API key's remains", async () => {
    const workflowId = await deployed(answering(1));
    const key = await keyFor(ownerId);
    // The same request on a process whose cache follows nothing, so serves nothing: what every run cost before.
    const uncached = await startCacheTestProcess(database, { follow: false });
    try {
      const statementsOfSecondRun = async (process: CacheTestProcess) => {
        await run(process, key, workflowId);
        const before = process.statements.count;
        await run(process, key, workflowId);
        return process.statements.count - before;
      };
      const before = await statementsOfSecondRun(uncached);
      const after = await statementsOfSecondRun(there);
      console.info(
        `[measure] Prisma statements of one execute request with wait (two blocks): ${before} uncached, ${after} cached`,
      );
      // Cached: the active deployment (the workflow's pointer, the deployment, its workflow relation), the secrets (names,
      // values), the price overrides and the budget caps. What remains: the key's read, the run's three writes, and the
      // notification to other processes, batched over 10-50 ms, so two when a busy machine stretches the run past one batch.
      expect(before - after).toBeGreaterThanOrEqual(7);
      expect(after).toBeLessThanOrEqual(6);
    } finally {
      await uncached.close();
    }
  });
});
