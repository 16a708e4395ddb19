import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkspaceRole } from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { createWorkflowService } from "./service";
import { workflowEndpoints, type WorkflowEndpoints } from "./workflow-endpoints";
import { auditRequestsTo } from "@/lib/audit";

/** Workflows belong to one workspace: another's ids are unknown, and a viewer changes nothing. */

let database: TestDatabase;
let http: WorkflowEndpoints;
let workspaceA: string;
let workspaceB: string;
let workflowOfA: string;
let baseOfA: string;

const start = { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: {} };
const documentWith = (...blocks: object[]) => ({ name: "Doc", blocks: [start, ...blocks], edges: [] });
const knowledgeBlock = (ids: string[]) => ({
  id: "kb",
  type: "knowledge",
  name: "Lookup",
  position: { x: 200, y: 0 },
  config: { knowledgeBaseIds: ids, query: "<start.message>" },
});
const agentWithTools = (tools: object[]) => ({
  id: "agent",
  type: "agent",
  name: "Helper",
  position: { x: 200, y: 0 },
  config: { model: "offline/echo", userPrompt: "hi", tools },
});

const json = (body: unknown, method = "POST") => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const as = (workspaceId: string, role: WorkspaceRole = "editor") => testMember(workspaceId, role);

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string; details: Array<{ path: string }> } })
    .error;
}

beforeAll(async () => {
  database = await createTestDatabase();
  http = workflowEndpoints(
    () =>
      createWorkflowService(
        database.repositories,
        (workspaceId) => new Set(workspaceId === workspaceA ? ["files"] : []),
      ),
    auditRequestsTo(() => database.prisma),
  );
  workspaceA = await database.createWorkspace("A");
  workspaceB = await database.createWorkspace("B");
  workflowOfA = (
    (await database.repositories.workflows.create(workspaceA, {
      name: "Secret plan",
      description: "",
      variables: {},
      blocks: [{ ...start, parentId: null, enabled: true }],
      edges: [],
    })) as {
      id: string;
    }
  ).id;
  baseOfA = (
    await database.prisma.knowledgeBase.create({
      data: {
        workspaceId: workspaceA,
        name: "A's notes",
        embeddingModel: "offline/hash-embed",
        chunkSize: 500,
        chunkOverlap: 50,
      },
    })
  ).id;
});
afterAll(() => database.close());

describe("another workspace's workflow", () => {
  it("is 404 on get, update and delete, and absent from the list", async () => {
    const params = { id: workflowOfA };
    const url = `http://localhost/api/workflows/${workflowOfA}`;
    const got = await http.get(new Request(url), params, as(workspaceB, "owner"));
    expect(got.status).toBe(404);
    expect((await errorOf(got)).message).toBe(`Workflow "${workflowOfA}" was not found`);
    const updated = await http.update(
      new Request(url, json({ ...documentWith(), version: 1 }, "PUT")),
      params,
      as(workspaceB, "owner"),
    );
    expect(updated.status).toBe(404);
    expect((await http.remove(new Request(url, { method: "DELETE" }), params, as(workspaceB, "owner"))).status).toBe(
      404,
    );
    const listed = (await (
      await http.list(new Request("http://localhost/api/workflows"), {}, as(workspaceB))
    ).json()) as { workflows: Array<{ id: string }> };
    expect(listed.workflows.map((workflow) => workflow.id)).not.toContain(workflowOfA);
    // Untouched in its own workspace.
    expect((await database.repositories.workflows.get(workspaceA, workflowOfA)).name).toBe("Secret plan");
  });
});

describe("ids inside block configs", () => {
  it("refuses a knowledge base of another workspace with 404 naming the block, and stores nothing", async () => {
    const before = await database.prisma.workflow.count();
    const response = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(knowledgeBlock([baseOfA])))),
      {},
      as(workspaceB),
    );
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error.message).toContain(
      `Block "Lookup" uses knowledge base "${baseOfA}", which was not found in this workspace`,
    );
    expect(error.details).toEqual([
      { path: "blocks[1].config.knowledgeBaseIds[0]", message: `knowledge base "${baseOfA}" was not found` },
    ]);
    expect(await database.prisma.workflow.count()).toBe(before);
  });

  it("answers an unknown id exactly like another workspace's", async () => {
    const foreign = await errorOf(
      await http.create(
        new Request("http://localhost/api/workflows", json(documentWith(knowledgeBlock([baseOfA])))),
        {},
        as(workspaceB),
      ),
    );
    const unknown = await errorOf(
      await http.create(
        new Request("http://localhost/api/workflows", json(documentWith(knowledgeBlock(["no-such-base"])))),
        {},
        as(workspaceB),
      ),
    );
    expect(unknown.message.replace("no-such-base", "ID")).toBe(foreign.message.replace(baseOfA, "ID"));
  });

  it("accepts the workspace's own ids, and references filled in at run time", async () => {
    const own = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(knowledgeBlock([baseOfA])))),
      {},
      as(workspaceA),
    );
    expect(own.status).toBe(201);
    const templated = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(knowledgeBlock(["{{BASE_ID}}"])))),
      {},
      as(workspaceB),
    );
    expect(templated.status).toBe(201);
  });

  it("refuses an agent tool naming another workspace's workflow, knowledge base or MCP server", async () => {
    const tools = [
      { type: "workflow", params: { workflowId: workflowOfA } },
      { type: "knowledge_search", params: { knowledgeBaseId: baseOfA } },
      { type: "mcp", params: { server: "files" } },
    ];
    const refused = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(agentWithTools(tools)))),
      {},
      as(workspaceB),
    );
    expect(refused.status).toBe(404);
    expect((await errorOf(refused)).details.map((detail) => detail.path)).toEqual([
      "blocks[1].config.tools[0].params.workflowId",
      "blocks[1].config.tools[1].params.knowledgeBaseId",
      "blocks[1].config.tools[2].params.server",
    ]);
    const allowed = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(agentWithTools(tools)))),
      {},
      as(workspaceA),
    );
    expect(allowed.status).toBe(201);
  });

  it("refuses a Workflow block running another workspace's workflow, naming the block", async () => {
    const workflowBlock = {
      id: "child",
      type: "workflow",
      name: "Hand off",
      position: { x: 200, y: 0 },
      config: { workflowId: workflowOfA },
    };
    const refused = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(workflowBlock))),
      {},
      as(workspaceB),
    );
    expect(refused.status).toBe(404);
    const error = await errorOf(refused);
    expect(error.message).toContain(
      `Block "Hand off" uses workflow "${workflowOfA}", which was not found in this workspace`,
    );
    expect(error.details.map((detail) => detail.path)).toEqual(["blocks[1].config.workflowId"]);
    const allowed = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith(workflowBlock))),
      {},
      as(workspaceA),
    );
    expect(allowed.status).toBe(201);
  });

  it("checks the ids on update too", async () => {
    const response0 = await http.create(
      new Request("http://localhost/api/workflows", json(documentWith())),
      {},
      as(workspaceB),
    );
    const created = (await response0.json()) as { id: string };
    const url = `http://localhost/api/workflows/${created.id}`;
    const response = await http.update(
      new Request(url, json({ ...documentWith(knowledgeBlock([baseOfA])), version: 1 }, "PUT")),
      { id: created.id },
      as(workspaceB),
    );
    expect(response.status).toBe(404);
    expect((await database.repositories.workflows.get(workspaceB, created.id)).version).toBe(1);
  });
});

describe("roles", () => {
  it("lets a viewer read but not create, update or delete (403, nothing changed)", async () => {
    const viewer = as(workspaceA, "viewer");
    expect(
      (await http.get(new Request(`http://localhost/api/workflows/${workflowOfA}`), { id: workflowOfA }, viewer))
        .status,
    ).toBe(200);
    const created = await http.create(new Request("http://localhost/api/workflows", json(documentWith())), {}, viewer);
    expect(created.status).toBe(403);
    expect(await errorOf(created)).toMatchObject({
      code: "forbidden",
      message: "Your role in this workspace (viewer) cannot do this: it needs editor or above.",
    });
    const url = `http://localhost/api/workflows/${workflowOfA}`;
    expect(
      (await http.update(new Request(url, json({ ...documentWith(), version: 1 }, "PUT")), { id: workflowOfA }, viewer))
        .status,
    ).toBe(403);
    expect((await http.remove(new Request(url, { method: "DELETE" }), { id: workflowOfA }, viewer)).status).toBe(403);
    expect((await database.repositories.workflows.get(workspaceA, workflowOfA)).version).toBe(1);
  });

  it("answers 401 when called with no member at all", async () => {
    expect((await http.list(new Request("http://localhost/api/workflows"), {})).status).toBe(401);
  });
});
