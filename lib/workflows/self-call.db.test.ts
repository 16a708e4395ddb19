import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { createWorkflowService } from "./service";
import { workflowEndpoints, type WorkflowEndpoints } from "./workflow-endpoints";
import { auditRequestsTo } from "@/lib/audit";

let database: TestDatabase;
let http: WorkflowEndpoints;
let workspaceId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  http = workflowEndpoints(
    () => createWorkflowService(database.repositories),
    auditRequestsTo(() => database.prisma),
  );
  workspaceId = await database.createWorkspace();
});
afterAll(() => database.close());

const start = { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } };
const callingBlock = (workflowId: string) => ({
  id: "call",
  type: "workflow",
  name: "Again",
  position: { x: 200, y: 0 },
  config: { workflowId },
});
const documentCalling = (workflowId: string) => ({
  name: "Loops",
  blocks: [start, callingBlock(workflowId)],
  edges: [{ id: "e1", source: "start", target: "call" }],
});

function put(id: string, body: unknown) {
  return http.update(
    new Request(`http://localhost/api/workflows/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { id },
    testMember(workspaceId),
  );
}

describe("saving a Workflow block that runs its own workflow", () => {
  it("is refused, naming the block; calling another workflow saves", async () => {
    const own = await database.repositories.workflows.create(workspaceId, {
      name: "Loops",
      blocks: [start],
      edges: [],
    } as never);
    const other = await database.repositories.workflows.create(workspaceId, {
      name: "Helper",
      blocks: [start],
      edges: [],
    } as never);

    const refused = await put(own.id, { ...documentCalling(own.id), version: own.version });
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as {
      error: { code: string; message: string; details: Array<{ path: string }> };
    };
    expect(error.code).toBe("invalid_workflow");
    expect(error.message).toBe('Workflow block "Again" runs this workflow itself, a cycle: choose another workflow');
    expect(error.details[0]!.path).toBe("blocks[1].config.workflowId");

    const saved = await put(own.id, { ...documentCalling(other.id), version: own.version });
    expect(saved.status).toBe(200);
  });
});
