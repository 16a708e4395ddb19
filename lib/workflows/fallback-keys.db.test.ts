import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRequestsTo } from "@/lib/audit";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { createWorkflowService } from "./service";
import { workflowEndpoints, type WorkflowEndpoints } from "./workflow-endpoints";

/**
 * Saving a Router or Evaluator with a fallback model whose provider has no key where the
 * workspace's runs would look for one: refused (400) naming the block, the model and the key to set.
 */

let database: TestDatabase;
let workspaceId: string;
/** The provider settings the workspace's runs would read; changed by the tests. */
let settings: Record<string, string> = {};

function endpoints(): WorkflowEndpoints {
  return workflowEndpoints(
    () =>
      createWorkflowService(database.repositories, undefined, undefined, async () => (name: string) => settings[name]),
    auditRequestsTo(() => database.prisma),
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  workspaceId = await database.createWorkspace();
});
afterAll(() => database.close());

const routerDocument = (fallbackModels: string[]) => ({
  name: "Routing with fallbacks",
  blocks: [
    { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
    {
      id: "router",
      type: "router",
      name: "Triage",
      position: { x: 200, y: 0 },
      config: { model: "openai/gpt-4o-mini", prompt: "Pick one", fallbackModels },
    },
    { id: "done", type: "response", name: "Done", position: { x: 400, y: 0 }, config: { data: {} } },
  ],
  edges: [
    { id: "e1", source: "start", target: "router" },
    { id: "e2", source: "router", target: "done" },
  ],
});

function save(document: unknown) {
  return endpoints().create(
    new Request("http://localhost/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(document),
    }),
    {},
    testMember(workspaceId),
  );
}

describe("saving fallback models", () => {
  it("refuses a fallback model without its provider's key, naming the block, the model and the key", async () => {
    settings = { OPENAI_API_KEY: "sk-test" };
    const refused = await save(routerDocument(["anthropic/claude-sonnet-4-5"]));
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as {
      error: { code: string; message: string; details: Array<{ path: string; message: string }> };
    };
    expect(error.code).toBe("invalid_workflow");
    expect(error.details).toEqual([
      {
        path: "blocks[1].config.fallbackModels[0]",
        message: expect.stringContaining(
          `Block "Triage": fallback model 'anthropic/claude-sonnet-4-5' cannot run without ANTHROPIC_API_KEY`,
        ),
      },
    ]);
  });

  it("saves once the key is set, and a document without fallbacks never needs one", async () => {
    settings = { ANTHROPIC_API_KEY: "sk-ant-test" };
    expect((await save(routerDocument(["anthropic/claude-sonnet-4-5"]))).status).toBe(201);
    settings = {};
    expect((await save(routerDocument([]))).status).toBe(201);
  });
});
