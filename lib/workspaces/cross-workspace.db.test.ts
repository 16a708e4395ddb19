import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_OPERATIONS, type ApiOperation } from "@/contract/openapi";
import { answerApiRequest } from "@/lib/api";
import { createApiKey } from "@/lib/auth";
import { getPrisma, getRepositories } from "@/lib/db";

/**
 * Every route with an id in its path, called by a member of workspace B with the ids of workspace
 * A, answers 404 `not_found` and changes nothing: through the app's API as the catch-all route
 * serves it (the dispatcher finds the caller and workspace, the endpoint acts), with B's API key.
 * Walks the declared operations, so a new route with a path id fails here until it is listed (and scoped).
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Public routes (the token, hook or chat id is the credential) and routes whose path holds no id of stored data. */
const skipped = new Set([
  "auth/invitations/[token]/route.ts",
  "hooks/[hookId]/route.ts",
  // A provider is the server's, the same for every workspace: its test uses the caller's own key.
  "providers/[provider]/test/route.ts",
]);

/** A declared path named as its route file was (`workflows/[id]/runs/route.ts`, a rest parameter `[...model]`), which the tables below are keyed by. */
function routeOf(operation: ApiOperation): string {
  const rest = (name: string) => operation.parameters?.some((parameter) => parameter.name === name && parameter.rest);
  return `${operation.path.slice("/api/".length).replace(/\{(\w+)\}/g, (_match, name: string) => (rest(name) ? `[...${name}]` : `[${name}]`))}/route.ts`;
}
const served: Handler = (request) => answerApiRequest(request);
const isPublicChatRoute = (file: string) => file.startsWith("chat/");

/** The model workspace A has its own price for. */
const A_PRICED_MODEL = "openai-compatible/a-only-model";

const prisma = getPrisma();
const repositories = getRepositories();
const a = {
  workspace: "",
  user: "",
  workflow: "",
  run: "",
  base: "",
  document: "",
  keyId: "",
  invitation: "",
  key: "",
  deployment: "",
  webhook: "",
  schedule: "",
  session: "",
  dataset: "",
  datasetCase: "",
  suite: "",
  evaluation: "",
};
let keyOfB: string;
let workspaceB: string;

async function makeUser(name: string) {
  const id = randomUUID();
  await prisma.user.create({ data: { id, name, email: `${name.toLowerCase()}-${id.slice(0, 8)}@example.com` } });
  return id;
}

async function workspaceOwnedBy(userId: string, name: string) {
  return (await repositories.workspaces.create(userId, name)).id;
}

const document = {
  name: "Plan",
  description: "",
  variables: {},
  blocks: [
    { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, parentId: null, enabled: true, config: {} },
  ],
  edges: [],
};

/** The value of each path parameter: workspace A's id of that kind. */
function paramsFor(file: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  const segments = path.dirname(file).split(path.sep);
  segments.forEach((segment, index) => {
    const name = /^\[(\w+)\]$/.exec(segment)?.[1];
    // A catch-all (`[...model]`) holds a model id, its slash a path separator: A's override of it.
    const rest = /^\[\.\.\.(\w+)\]$/.exec(segment)?.[1];
    if (rest !== undefined && `${segments[index - 1]}/${rest}` === "prices/model")
      params[rest] = A_PRICED_MODEL.split("/");
    if (!name) return;
    const parent = segments[index - 1];
    const ids: Record<string, string> = {
      "workflows/id": a.workflow,
      "runs/id": a.run,
      "knowledge-bases/id": a.base,
      "documents/documentId": a.document,
      "api-keys/id": a.keyId,
      "secrets/name": "A_ONLY_SECRET",
      "mcp/server": "a-only",
      "workspaces/workspaceId": a.workspace,
      "members/userId": a.user,
      "invitations/invitationId": a.invitation,
      "approvals/toolCallId": "call-1",
      "diff/otherId": a.run,
      "asks/spanId": "span-1",
      "deployments/deploymentId": a.deployment,
      "webhooks/id": a.webhook,
      "schedules/id": a.schedule,
      "sessions/sessionId": a.session,
      "datasets/id": a.dataset,
      "cases/caseId": a.datasetCase,
      "suites/id": a.suite,
      "evaluations/id": a.evaluation,
      "compare/otherId": a.evaluation,
    };
    const value = ids[`${parent}/${name}`];
    if (value === undefined)
      throw new Error(`${file}: no id of workspace A for the path parameter ${parent}/[${name}]: add one to this test`);
    params[name] = value;
  });
  return params;
}

/** A valid body where the endpoint reads one before looking the id up, so the answer is about the id. */
function bodyFor(file: string, method: string): unknown {
  const route = path.dirname(file).split(path.sep).join("/");
  if (method === "PUT" && route === "workflows/[id]") return { ...document, version: 1 };
  if (
    method === "POST" &&
    (route === "workflows/[id]/runs" || route === "workflows/[id]/execute" || route === "workflows/[id]/deployments")
  )
    return {};
  if (method === "POST" && route === "workflows/[id]/webhooks") return {};
  if (method === "POST" && route === "workflows/[id]/estimate") return { input: {} };
  if (method === "POST" && route === "workflows/[id]/schedules") return { cron: "0 9 * * *" };
  if (method === "POST" && route === "workflows/[id]/chat") return { enabled: true };
  if (method === "POST" && route === "workflows/[id]/mcp") return { enabled: true, toolName: "taken_over" };
  if (method === "PATCH" && route === "schedules/[id]") return { paused: true };
  if (method === "POST" && route.endsWith("approvals/[toolCallId]")) return { approved: true };
  if (method === "POST" && route === "runs/[id]/rerun") return { blockId: "start" };
  if (method === "POST" && route.endsWith("asks/[spanId]")) return { choice: "yes" };
  if (method === "POST" && route.endsWith("/search")) return { query: "plans" };
  if (method === "PATCH" && route === "workspaces/[workspaceId]") return { name: "Taken over" };
  if (method === "POST" && route === "workspaces/[workspaceId]/members")
    return { email: "intruder@example.com", role: "owner" };
  if (method === "PATCH" && route.endsWith("members/[userId]")) return { role: "viewer" };
  const suite = { name: "Taken over", datasetId: a.dataset, scorers: [{ type: "exact" }] };
  if (method === "PATCH" && route === "datasets/[id]") return { name: "Taken over" };
  if (method === "POST" && route === "datasets/[id]/cases") return { cases: [{ input: {} }] };
  if (method === "PUT" && route === "datasets/[id]/cases/[caseId]") return { input: {} };
  if (method === "POST" && route === "runs/[id]/dataset") return { datasetId: a.dataset };
  if ((method === "POST" && route === "workflows/[id]/suites") || (method === "PUT" && route === "suites/[id]"))
    return suite;
  if (method === "POST" && route === "workflows/[id]/evaluations") return { suiteId: a.suite };
  if (method === "POST" && route === "workflows/[id]/copilot")
    return { message: "Take this workflow over", model: "openai/gpt-4o-mini", version: 1 };
  return undefined;
}

beforeAll(async () => {
  a.user = await makeUser("Ann");
  a.workspace = await workspaceOwnedBy(a.user, "A");
  const bob = await makeUser("Bob");
  workspaceB = await workspaceOwnedBy(bob, "B");
  keyOfB = (await createApiKey(prisma, { userId: bob, workspaceId: workspaceB }, { name: "b" })).key;
  const keyOfA = await createApiKey(prisma, { userId: a.user, workspaceId: a.workspace }, { name: "a" });
  a.keyId = keyOfA.id;
  a.key = keyOfA.key;
  a.workflow = (await repositories.workflows.create(a.workspace, document)).id;
  a.run = (await repositories.runs.create({ workspaceId: a.workspace, workflowId: a.workflow, status: "paused" })).id;
  const base = await prisma.knowledgeBase.create({
    data: {
      workspaceId: a.workspace,
      name: "A's notes",
      embeddingModel: "offline/hash-embed",
      chunkSize: 500,
      chunkOverlap: 50,
    },
  });
  a.base = base.id;
  const content = Buffer.from("plans for the year");
  a.document = (
    await prisma.knowledgeDocument.create({
      data: {
        knowledgeBaseId: base.id,
        name: "plans.txt",
        kind: "text",
        sizeBytes: content.length,
        content,
        contentHash: createHash("sha256").update(content).digest("hex"),
        status: "ready",
      },
    })
  ).id;
  await repositories.secrets.set(a.workspace, "A_ONLY_SECRET", "a-value");
  await repositories.priceOverrides.put(a.workspace, A_PRICED_MODEL, { input: 1, output: 2 }, a.user);
  a.invitation = (
    await repositories.workspaces.invite(a.workspace, {
      email: "guest@example.com",
      role: "viewer",
      invitedById: a.user,
    })
  ).invitation.id;
  a.deployment = (
    await prisma.deployment.create({
      data: { workspaceId: a.workspace, workflowId: a.workflow, number: 1, workflowVersion: 1, document },
    })
  ).id;
  a.webhook = (
    await prisma.webhook.create({ data: { id: randomUUID(), workspaceId: a.workspace, workflowId: a.workflow } })
  ).id;
  a.schedule = (
    await prisma.schedule.create({ data: { workspaceId: a.workspace, workflowId: a.workflow, cron: "0 9 * * *" } })
  ).id;
  a.session = (
    await prisma.session.create({
      data: { id: randomUUID(), userId: a.user, token: randomUUID(), expiresAt: new Date(Date.now() + 3_600_000) },
    })
  ).id;
  const dataset = await prisma.dataset.create({
    data: { workspaceId: a.workspace, workflowId: a.workflow, name: "A's cases" },
  });
  a.dataset = dataset.id;
  a.datasetCase = (
    await prisma.datasetCase.create({
      data: { datasetId: dataset.id, caseId: randomUUID(), position: 0, input: {}, addedIn: 1 },
    })
  ).caseId;
  a.suite = (
    await prisma.evaluationSuite.create({
      data: {
        workspaceId: a.workspace,
        workflowId: a.workflow,
        name: "A's suite",
        datasetId: dataset.id,
        scorers: [{ type: "exact" }],
      },
    })
  ).id;
  a.evaluation = (
    await prisma.evaluation.create({
      data: {
        workspaceId: a.workspace,
        workflowId: a.workflow,
        suiteId: a.suite,
        datasetVersion: 1,
        target: "draft",
        workflowVersion: 1,
        concurrency: 1,
        status: "succeeded",
        caseCount: 0,
      },
    })
  ).id;
  process.env.TRELLIS_MCP_SERVERS = JSON.stringify({
    "a-only": { transport: "http", url: "http://127.0.0.1:9/mcp", workspaces: [a.workspace] },
  });
});
afterAll(() => {
  delete process.env.TRELLIS_MCP_SERVERS;
});

const routeFiles = [...new Set(API_OPERATIONS.map(routeOf))].filter(
  (file) => file.includes("[") && !skipped.has(file) && !isPublicChatRoute(file),
);

describe("workspace A's ids, asked for by a member of workspace B", () => {
  it("covers every route with a path id", () => {
    expect(routeFiles.length).toBeGreaterThanOrEqual(17);
  });

  for (const file of routeFiles) {
    it(`${file} answers 404 for each method`, async () => {
      const declared = API_OPERATIONS.filter((operation) => routeOf(operation) === file).map(
        (operation) => operation.method,
      );
      const params = paramsFor(file);
      // A diff names its two sides in the query; both are the draft here, so the answer is about the workflow's id.
      const query = file.includes(`deployments${path.sep}diff`) ? "?from=draft&to=draft" : "";
      const url = `http://localhost/api/${Object.entries(params).reduce(
        (at, [name, value]) =>
          Array.isArray(value) ? at.replace(`[...${name}]`, value.join("/")) : at.replace(`[${name}]`, value),
        path.dirname(file).split(path.sep).join("/"),
      )}${query}`;
      for (const method of methods.filter((name) => declared.includes(name))) {
        // PUT /api/secrets/:name writes B's own secret of that name: names are per workspace, not ids.
        // So does PUT /api/prices/:model: B's own price of that model.
        if (method === "PUT" && (file.startsWith("secrets") || file.startsWith("prices"))) continue;
        const body = bodyFor(file, method);
        const headers: Record<string, string> = { authorization: `Bearer ${keyOfB}` };
        if (body !== undefined) headers["content-type"] = "application/json";
        const answer = await served(
          new Request(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
          {
            params: Promise.resolve(params),
          },
        );
        expect([method, answer.status]).toEqual([method, 404]);
        expect(await answer.json()).toMatchObject({ error: { code: "not_found" } });
      }
    });
  }

  it("cannot import a file that names A's workflow or A's MCP server (404), and B stores nothing", async () => {
    const importRoute = { POST: served };
    const post = (body: unknown) =>
      importRoute.POST(
        new Request("http://localhost/api/workflows/import", {
          method: "POST",
          headers: { authorization: `Bearer ${keyOfB}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({}) },
      );
    const callsA = {
      ...document,
      blocks: [
        ...document.blocks,
        {
          id: "agent",
          type: "agent",
          name: "Agent",
          position: { x: 0, y: 0 },
          config: {
            userPrompt: "Plan",
            tools: [{ type: "workflow", name: "plan", params: { workflowId: a.workflow } }],
          },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent" }],
    };
    const usesAsServer = { flow_id: "steal", agents: [{ agent: "reader", description: "Read", tools: ["read_note"] }] };
    for (const body of [{ file: callsA }, { file: usesAsServer, mcpServer: "a-only" }]) {
      const answer = await post(body);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ error: { code: "not_found" } });
    }
    expect(await prisma.workflow.count({ where: { workspaceId: workspaceB } })).toBe(0);
  });

  it("cannot set a monthly cap on A's API key (404), and no cap is stored", async () => {
    const budgets = { PUT: served };
    const answer = await budgets.PUT(
      new Request("http://localhost/api/budgets", {
        method: "PUT",
        headers: { authorization: `Bearer ${keyOfB}`, "content-type": "application/json" },
        body: JSON.stringify({ apiKeys: { [a.keyId]: 1 } }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: "not_found" } });
    expect(await prisma.budgetCap.count({ where: { scopeId: a.keyId } })).toBe(0);
  });

  it("left everything of workspace A as it was", async () => {
    expect((await repositories.workflows.get(a.workspace, a.workflow)).version).toBe(1);
    expect(await prisma.mcpTool.count({ where: { workflowId: a.workflow } })).toBe(0);
    expect((await repositories.runs.get(a.workspace, a.run)).status).toBe("paused");
    expect(await repositories.secrets.get(a.workspace, "A_ONLY_SECRET")).toBe("a-value");
    expect(await repositories.priceOverrides.table(a.workspace)).toEqual({ [A_PRICED_MODEL]: { input: 1, output: 2 } });
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id: a.keyId } })).revokedAt).toBeNull();
    expect(await prisma.knowledgeDocument.count({ where: { knowledgeBaseId: a.base } })).toBe(1);
    expect((await repositories.workspaces.members(a.workspace)).invitations).toHaveLength(1);
    expect((await repositories.workspaces.listForUser(a.user))[0]).toMatchObject({ name: "A", role: "owner" });
  });
});

describe("a key of workspace A", () => {
  it("cannot act in B by naming it in the header (404), and lists only A's workflows", async () => {
    const workflows = { GET: served };
    const named = await workflows.GET(
      new Request("http://localhost/api/workflows", {
        headers: { authorization: `Bearer ${a.key}`, "x-trellis-workspace": workspaceB },
      }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(named.status).toBe(404);
    const own = await workflows.GET(
      new Request("http://localhost/api/workflows", { headers: { authorization: `Bearer ${a.key}` } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(
      ((await own.json()) as { workflows: Array<{ id: string }> }).workflows.map((workflow) => workflow.id),
    ).toEqual([a.workflow]);
  });
});
