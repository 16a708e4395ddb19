import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiRun, RunDocument, RunSummary } from "@/contract";
import type { Member } from "@/lib/auth";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { deploymentEndpoints, type DeploymentEndpoints } from "@/lib/deployments/deployment-endpoints";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";
import { auditRequestsTo } from "@/lib/audit";

let kit: RunTestKit;
let deployments: DeploymentEndpoints;
let ws: string;
let editor: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  deployments = deploymentEndpoints(
    () => createDeploymentService(kit.database.repositories),
    auditRequestsTo(() => kit.database.prisma),
  );
  ws = await kit.database.createWorkspace();
  editor = testMember(ws, "editor");
});
afterAll(() => kit.close());

/** Start, then a Response named `replyName`; `extra` adds a block after it. */
function document(replyName: string, extra = false) {
  return {
    name: "Greeter",
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
      {
        id: "reply",
        type: "response",
        name: replyName,
        position: { x: 300, y: 0 },
        config: { data: { answer: replyName } },
      },
      ...(extra
        ? [
            {
              id: "note",
              type: "function",
              name: "Added Later",
              position: { x: 600, y: 0 },
              config: { code: "return 1;" },
            },
          ]
        : []),
    ],
    edges: [{ id: "start-reply", source: "start", target: "reply" }],
  };
}

async function saveDraft(workflowId: string, next: unknown): Promise<void> {
  const { version } = await kit.database.repositories.workflows.get(ws, workflowId);
  await kit.database.repositories.workflows.update(ws, workflowId, next as never, version);
}

const post = (path: string, body: unknown = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function runVia(kind: "execute" | "start", workflowId: string): Promise<ApiRun> {
  const response = await kit.endpoints[kind](
    post(`/api/workflows/${workflowId}/${kind === "execute" ? "execute" : "runs"}`, { wait: true }),
    { id: workflowId },
    editor,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ApiRun;
}

async function getRun(runId: string, member = editor): Promise<Response> {
  return kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, member);
}

async function runDocument(runId: string, member = editor): Promise<Response> {
  return kit.endpoints.document(new Request(`http://localhost/api/runs/${runId}/document`), { id: runId }, member);
}

async function listRuns(workflowId: string): Promise<RunSummary[]> {
  const response = await kit.endpoints.list(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`),
    { id: workflowId },
    editor,
  );
  return ((await response.json()) as { runs: RunSummary[] }).runs;
}

describe("a run keeps the workflow version and document it ran", () => {
  it("answers each run's own version and graph after the draft was renamed and grew a block", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, document("Greet") as never)).id;
    const first = await runVia("start", workflowId);
    expect(first).toMatchObject({ status: "succeeded", workflowVersion: 1, output: { answer: "Greet" } });

    await saveDraft(workflowId, document("Welcome", true));
    const second = await runVia("start", workflowId);
    expect(second).toMatchObject({ status: "succeeded", workflowVersion: 2, output: { answer: "Welcome" } });

    expect((await listRuns(workflowId)).map((run) => [run.id, run.workflowVersion])).toEqual([
      [second.id, 2],
      [first.id, 1],
    ]);
    expect(((await (await getRun(first.id)).json()) as ApiRun).workflowVersion).toBe(1);

    const response = await runDocument(first.id);
    expect(response.status).toBe(200);
    const ran = (await response.json()) as RunDocument;
    expect(ran).toMatchObject({ runId: first.id, workflowId, workflowVersion: 1 });
    expect(ran.document?.blocks.map((block) => block.name)).toEqual(["Start", "Greet"]);

    const now = (await (await runDocument(second.id)).json()) as RunDocument;
    expect(now.document?.blocks.map((block) => block.name)).toEqual(["Start", "Welcome", "Added Later"]);
  });

  it("a deployment's run names the version that was deployed, not the draft's", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, document("Deployed") as never)).id;
    const deployed = await deployments.create(
      post(`/api/workflows/${workflowId}/deployments`, { note: "" }),
      { id: workflowId },
      editor,
    );
    expect(deployed.status).toBe(201);
    await saveDraft(workflowId, document("Draft"));
    await saveDraft(workflowId, document("Draft again"));

    const run = await runVia("execute", workflowId);
    expect(run).toMatchObject({ workflowVersion: 1, output: { answer: "Deployed" } });
    const ran = (await (await runDocument(run.id)).json()) as RunDocument;
    expect(ran.document?.blocks.map((block) => block.name)).toEqual(["Start", "Deployed"]);
  });

  it("a run stored before versions and documents were kept answers null for both", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, document("Old") as never)).id;
    const old = await kit.database.repositories.runs.create({ workspaceId: ws, workflowId, status: "succeeded" });
    expect(((await (await getRun(old.id)).json()) as ApiRun).workflowVersion).toBeNull();
    expect(await (await runDocument(old.id)).json()).toEqual({
      runId: old.id,
      workflowId,
      workflowVersion: null,
      document: null,
    });
  });

  it("another workspace's run is not found", async () => {
    const workflowId = (await kit.database.repositories.workflows.create(ws, document("Mine") as never)).id;
    const run = await runVia("start", workflowId);
    const stranger = testMember(await kit.database.createWorkspace(), "owner");
    const response = await runDocument(run.id, stranger);
    expect(response.status).toBe(404);
  });
});
