import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeploymentInfo, DocumentDiff, RunSummary } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { deploymentEndpoints, type DeploymentEndpoints } from "./deployment-endpoints";
import { createDeploymentService } from "./deployment-service";
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

/** Start, then a Response answering `{ answer }`. */
function answering(answer: string) {
  return {
    name: "Greeter",
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: [] } },
      { id: "reply", type: "response", name: "Reply", position: { x: 300, y: 0 }, config: { data: { answer } } },
    ],
    edges: [{ id: "start-reply", source: "start", target: "reply" }],
  };
}

async function createWorkflow(answer: string): Promise<string> {
  return (await kit.database.repositories.workflows.create(ws, answering(answer) as never)).id;
}

async function saveDraft(workflowId: string, document: unknown): Promise<void> {
  const { version } = await kit.database.repositories.workflows.get(ws, workflowId);
  await kit.database.repositories.workflows.update(ws, workflowId, document as never, version);
}

const post = (path: string, body: unknown = {}) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function deploy(workflowId: string, note = "", member = editor): Promise<Response> {
  return deployments.create(post(`/api/workflows/${workflowId}/deployments`, { note }), { id: workflowId }, member);
}

/** Runs the active deployment (`execute`) or the draft (`runs`) and answers the finished run. */
async function runVia(kind: "execute" | "start", workflowId: string, member = editor) {
  const response = await kit.endpoints[kind](
    post(`/api/workflows/${workflowId}/${kind === "execute" ? "execute" : "runs"}`, { wait: true }),
    { id: workflowId },
    member,
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const listRuns = async (workflowId: string, query: string) =>
  (
    (await (
      await kit.endpoints.list(
        new Request(`http://localhost/api/workflows/${workflowId}/runs${query}`),
        { id: workflowId },
        editor,
      )
    ).json()) as {
      runs: RunSummary[];
    }
  ).runs;

describe("deployments", () => {
  it("freeze the workflow: editing the draft changes nothing the API runs until the next deploy, and an earlier one can be activated again", async () => {
    const workflowId = await createWorkflow("hello v1");
    const first = await deploy(workflowId, "first release");
    expect(first.status).toBe(201);
    const v1 = (await first.json()) as DeploymentInfo;
    expect(v1).toMatchObject({
      workflowId,
      number: 1,
      note: "first release",
      active: true,
      createdBy: null,
      workflowVersion: 1,
    });

    await saveDraft(workflowId, answering("hello draft"));
    const deployed = await runVia("execute", workflowId);
    expect(deployed.status).toBe(200);
    expect(deployed.body).toMatchObject({
      status: "succeeded",
      output: { answer: "hello v1" },
      deploymentId: v1.id,
      trigger: { kind: "editor" },
    });
    const draft = await runVia("start", workflowId);
    expect(draft.body).toMatchObject({ output: { answer: "hello draft" }, deploymentId: null });

    const v2 = (await (await deploy(workflowId, "second")).json()) as DeploymentInfo;
    expect(v2).toMatchObject({ number: 2, active: true, workflowVersion: 2 });
    expect((await runVia("execute", workflowId)).body).toMatchObject({
      output: { answer: "hello draft" },
      deploymentId: v2.id,
    });

    const rolledBack = await deployments.activate(
      post(`/api/workflows/${workflowId}/deployments/${v1.id}/activate`),
      { id: workflowId, deploymentId: v1.id },
      editor,
    );
    expect(rolledBack.status).toBe(200);
    expect(await rolledBack.json()).toMatchObject({ id: v1.id, active: true });
    expect((await runVia("execute", workflowId)).body).toMatchObject({
      output: { answer: "hello v1" },
      deploymentId: v1.id,
    });

    const listed = (await (
      await deployments.list(
        new Request(`http://localhost/api/workflows/${workflowId}/deployments`),
        { id: workflowId },
        editor,
      )
    ).json()) as {
      deployments: DeploymentInfo[];
      nextCursor: string | null;
    };
    expect(listed.deployments.map((deployment) => [deployment.number, deployment.active])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(listed.nextCursor).toBeNull();

    // Runs say which deployment they ran, and the list filters by it.
    expect((await listRuns(workflowId, `?deployment=${v1.id}`)).map((run) => run.deploymentId)).toEqual([v1.id, v1.id]);
    expect((await listRuns(workflowId, "?deployment=draft")).map((run) => run.deploymentId)).toEqual([null]);
  });

  it("shows what changed between a deployment and the draft, by block name and field", async () => {
    const workflowId = await createWorkflow("v1");
    const v1 = (await (await deploy(workflowId)).json()) as DeploymentInfo;
    const changed = answering("v2");
    changed.blocks[1]!.name = "Final reply";
    changed.blocks.push({
      id: "note",
      type: "response",
      name: "Unused",
      position: { x: 600, y: 0 },
      config: { data: { answer: "" } },
    });
    await saveDraft(workflowId, changed);
    const response = await deployments.diff(
      new Request(`http://localhost/api/workflows/${workflowId}/deployments/diff?from=${v1.id}&to=draft`),
      { id: workflowId },
      editor,
    );
    expect(response.status).toBe(200);
    expect((await response.json()) as DocumentDiff).toEqual({
      blocksAdded: [{ id: "note", name: "Unused", type: "response" }],
      blocksRemoved: [],
      blocksChanged: [{ id: "reply", name: "Final reply", type: "response", fields: ["name", "config.data"] }],
      edgesAdded: 0,
      edgesRemoved: 0,
      otherChanges: [],
    });
    const missingSide = await deployments.diff(
      new Request(`http://localhost/api/workflows/${workflowId}/deployments/diff?from=draft`),
      { id: workflowId },
      editor,
    );
    expect(missingSide.status).toBe(400);
    expect(JSON.stringify(await missingSide.json())).toContain("?to=");
  });

  it("answers 409 not_deployed for execute before the first deploy, and stores no run", async () => {
    const workflowId = await createWorkflow("never deployed");
    const refused = await runVia("execute", workflowId);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: "not_deployed" } });
    expect(await listRuns(workflowId, "")).toEqual([]);
  });

  it("refuses to deploy an unfinished draft, naming the problem, and stores nothing", async () => {
    const workflowId = await createWorkflow("ok");
    await saveDraft(workflowId, {
      name: "No start",
      blocks: [{ id: "reply", type: "response", name: "Reply", config: { data: {} } }],
      edges: [],
    });
    const refused = await deploy(workflowId);
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_workflow");
    expect(body.error.message).toContain("Cannot deploy");
    expect(body.error.message).toContain("start block");
    const listed = (await (
      await deployments.list(
        new Request(`http://localhost/api/workflows/${workflowId}/deployments`),
        { id: workflowId },
        editor,
      )
    ).json()) as {
      deployments: unknown[];
    };
    expect(listed.deployments).toEqual([]);
  });

  it("lets a viewer see deployments but not deploy or roll back, and hides other workspaces' workflows", async () => {
    const workflowId = await createWorkflow("guarded");
    const v1 = (await (await deploy(workflowId)).json()) as DeploymentInfo;
    const viewer = testMember(ws, "viewer");
    expect((await deploy(workflowId, "", viewer)).status).toBe(403);
    expect((await deployments.activate(post("/x"), { id: workflowId, deploymentId: v1.id }, viewer)).status).toBe(403);
    expect((await deployments.list(new Request("http://localhost/x"), { id: workflowId }, viewer)).status).toBe(200);
    const stranger = testMember(await kit.database.createWorkspace(), "owner");
    expect((await deploy(workflowId, "", stranger)).status).toBe(404);
    expect((await runVia("execute", workflowId, stranger)).status).toBe(404);
  });

  it("records an API key's runs as trigger api with the key's id, and filters the run list by trigger", async () => {
    const workflowId = await createWorkflow("keyed");
    await deploy(workflowId);
    const keyCaller: Member = { ...editor, via: "api-key", apiKeyId: "key-123", keyWorkspaceId: ws, keyRole: "editor" };
    expect((await runVia("execute", workflowId, keyCaller)).body).toMatchObject({
      trigger: { kind: "api", apiKeyId: "key-123" },
    });
    await runVia("start", workflowId);
    expect((await listRuns(workflowId, "?trigger=api")).map((run) => run.trigger)).toEqual([
      { kind: "api", apiKeyId: "key-123" },
    ]);
    expect((await listRuns(workflowId, "?trigger=editor,api")).length).toBe(2);
    const unknown = await kit.endpoints.list(
      new Request(`http://localhost/api/workflows/${workflowId}/runs?trigger=fax`),
      { id: workflowId },
      editor,
    );
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain('Unknown trigger \\"fax\\"');
  });
});
