import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { createWorkflowService } from "./service";
import { workflowEndpoints, type WorkflowEndpoints } from "./workflow-endpoints";
import { auditRequestsTo } from "@/lib/audit";

let database: TestDatabase;
let http: WorkflowEndpoints;
let workspaceId: string;

/** The tool types the server's registry offers, as GET /api/tools lists them. */
const registryTypes = new Set(["calculator", "http_request", "knowledge_search", "run_function", "workflow", "mcp"]);

beforeAll(async () => {
  database = await createTestDatabase();
  http = workflowEndpoints(
    () =>
      createWorkflowService(
        database.repositories,
        () => new Set(),
        () => registryTypes,
      ),
    auditRequestsTo(() => database.prisma),
  );
  workspaceId = await database.createWorkspace();
});
afterAll(() => database.close());

const start = {
  id: "start",
  type: "start",
  name: "Start",
  position: { x: 0, y: 0 },
  config: { inputs: [{ name: "message", type: "string" }] },
};
const agentWith = (tools: unknown[]) => ({
  name: "Support",
  blocks: [
    start,
    {
      id: "agent1",
      type: "agent",
      name: "Support Agent",
      position: { x: 200, y: 0 },
      config: { model: "offline/echo", userPrompt: "<start.message>", tools },
    },
  ],
  edges: [{ id: "e1", source: "start", target: "agent1" }],
});

function post(body: unknown) {
  return http.create(
    new Request("http://localhost/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    {},
    testMember(workspaceId),
  );
}

async function errorOf(response: Response) {
  return (
    (await response.json()) as {
      error: { code: string; message: string; details: Array<{ path: string; message: string }> };
    }
  ).error;
}

describe("saving an agent whose tools name a tool that does not exist", () => {
  it("is refused, naming the tool, the block and the entry's path; nothing is stored", async () => {
    const response = await post(agentWith(["calculator", { type: "foo", params: {} }, "web_serch"]));
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_workflow");
    expect(error.message).toContain(`Block "Support Agent": tool 'foo' does not exist`);
    expect(error.details).toEqual([
      {
        path: "blocks[1].config.tools[1].type",
        message: expect.stringMatching(
          /^Block "Support Agent": tool 'foo' does not exist \(tools: calculator, http_request/,
        ),
      },
      { path: "blocks[1].config.tools[2]", message: expect.stringContaining("tool 'web_serch' does not exist") },
    ]);
    expect(await database.prisma.workflow.count({ where: { workspaceId } })).toBe(0);
  });

  it("names an entry that names no tool at all", async () => {
    const error = await errorOf(await post(agentWith([{ params: { url: "x" } }])));
    expect(error.details).toEqual([
      {
        path: "blocks[1].config.tools[0]",
        message: `Block "Support Agent": tools[0] must be a tool type such as "calculator" or an object with a "type"`,
      },
    ]);
  });

  it("saves the support agent's tools: knowledge search, an API call and a custom function", async () => {
    const base = await database.prisma.knowledgeBase.create({
      data: { workspaceId, name: "Policies", embeddingModel: "offline/hash-embed", chunkSize: 500, chunkOverlap: 50 },
    });
    const response = await post(
      agentWith([
        { type: "knowledge_search", params: { knowledgeBaseId: base.id, topK: 3 } },
        {
          type: "http_request",
          name: "order_status",
          params: { url: "https://api.example.com/orders/<start.orderId>", method: "GET" },
        },
        {
          type: "run_function",
          name: "refund_amount",
          params: { code: "return services.inputs.total * 0.9;", parameters: { type: "object", properties: {} } },
        },
      ]),
    );
    expect(response.status).toBe(201);
  });

  it("names a workflow tool whose workflow was deleted", async () => {
    const gone = await database.repositories.workflows.create(workspaceId, {
      name: "Gone",
      blocks: [start],
      edges: [],
    } as never);
    await database.repositories.workflows.delete(workspaceId, gone.id);
    const response = await post(agentWith([{ type: "workflow", name: "gone", params: { workflowId: gone.id } }]));
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error.details).toEqual([
      { path: "blocks[1].config.tools[0].params.workflowId", message: `workflow "${gone.id}" was not found` },
    ]);
  });

  it("checks the stored things an entry names in its `id` form too, as it runs them", async () => {
    const gone = await database.repositories.workflows.create(workspaceId, {
      name: "Gone too",
      blocks: [start],
      edges: [],
    } as never);
    await database.repositories.workflows.delete(workspaceId, gone.id);
    const stored = await database.prisma.workflow.count({ where: { workspaceId } });
    const response = await post(
      agentWith([
        { id: "workflow", name: "gone", params: { workflowId: gone.id } },
        { id: "knowledge_search", params: { knowledgeBaseId: "kb-of-nobody" } },
      ]),
    );
    expect(response.status).toBe(404);
    expect((await errorOf(response)).details).toEqual([
      { path: "blocks[1].config.tools[0].params.workflowId", message: `workflow "${gone.id}" was not found` },
      {
        path: "blocks[1].config.tools[1].params.knowledgeBaseId",
        message: 'knowledge base "kb-of-nobody" was not found',
      },
    ]);
    expect(await database.prisma.workflow.count({ where: { workspaceId } })).toBe(stored);
  });
});
