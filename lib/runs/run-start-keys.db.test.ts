import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";

/**
 * POST /api/workflows/:id/runs with an Idempotency-Key (the webhooks' claim, per workflow), and the
 * run list filtered by who started a run: a member with a session, or an API key.
 */

let kit: RunTestKit;
let workspaceId: string;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  workspaceId = await kit.database.createWorkspace();
  member = testMember(workspaceId, "editor", { userId: "user-ada" });
});
afterAll(() => kit.close());

const apiKeyMember = (apiKeyId: string): Member => ({
  ...testMember(workspaceId, "editor", { userId: "user-key-owner" }),
  via: "api-key",
  apiKeyId,
  keyWorkspaceId: workspaceId,
});

/** A workflow that runs without a model: the start block alone (with `inputs`, each required). */
async function createWorkflow(inputs: Array<{ name: string; type: string }> = []): Promise<string> {
  const workflow = await kit.database.repositories.workflows.create(workspaceId, {
    name: "Keyed starts",
    blocks: [{ id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs } }],
    edges: [],
  } as never);
  return workflow.id;
}

function start(workflowId: string, caller: Member, key?: string, body: unknown = {}) {
  return kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(key === undefined ? {} : { "idempotency-key": key }) },
      body: JSON.stringify(body),
    }),
    { id: workflowId },
    caller,
  );
}

async function listIds(workflowId: string, query: string): Promise<string[]> {
  const answer = await kit.endpoints.list(
    new Request(`http://localhost/api/workflows/${workflowId}/runs${query}`),
    { id: workflowId },
    member,
  );
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { runs: Array<{ id: string }> }).runs.map((run) => run.id);
}

describe("a run start with an Idempotency-Key", () => {
  it("answers a repeat with the first run and starts nothing more; another key starts another run", async () => {
    const workflowId = await createWorkflow();
    const first = await start(workflowId, member, "order-17");
    expect(first.status).toBe(202);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const { runId } = (await first.json()) as { runId: string };

    const again = await start(workflowId, member, "order-17");
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual({ runId });

    const other = await start(workflowId, member, "order-18");
    const { runId: otherRunId } = (await other.json()) as { runId: string };
    expect(otherRunId).not.toBe(runId);
    expect((await listIds(workflowId, "")).sort()).toEqual([runId, otherRunId].sort());
  });

  it("claims each key once when the same start is sent twice at the same time", async () => {
    const workflowId = await createWorkflow();
    const answers = await Promise.all([start(workflowId, member, "burst"), start(workflowId, member, "burst")]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as Array<{ runId: string }>;
    expect(bodies[0]!.runId).toBe(bodies[1]!.runId);
    expect(answers.map((answer) => answer.headers.get("idempotent-replayed")).sort()).toEqual([null, "true"].sort());
    expect(await listIds(workflowId, "")).toEqual([bodies[0]!.runId]);
  });

  it("leaves the key free when the start is refused, and refuses a malformed key before anything", async () => {
    const workflowId = await createWorkflow();
    // Refused after the key was claimed: the workflow was never deployed, so there is nothing to execute.
    const refused = await kit.endpoints.execute(
      new Request(`http://localhost/api/workflows/${workflowId}/execute`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "retry-me" },
        body: "{}",
      }),
      { id: workflowId },
      member,
    );
    expect(refused.status).toBe(409);
    const retried = await start(workflowId, member, "retry-me");
    expect(retried.status).toBe(202);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();

    const malformed = await start(workflowId, member, "k".repeat(256));
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(await malformed.json())).toContain("Idempotency-Key");
    expect(await listIds(workflowId, "")).toHaveLength(1);
  });

  it("keeps keys per workflow, and answers 404 for another workspace's workflow without claiming", async () => {
    const one = await createWorkflow();
    const two = await createWorkflow();
    const a = (await (await start(one, member, "shared")).json()) as { runId: string };
    const b = (await (await start(two, member, "shared")).json()) as { runId: string };
    expect(a.runId).not.toBe(b.runId);

    const otherWorkspace = await kit.database.createWorkspace();
    const outsider = testMember(otherWorkspace, "editor", { userId: "user-eve" });
    const probe = await start(one, outsider, "shared");
    expect(probe.status).toBe(404);
  });
});

describe("the run list filtered by who started a run", () => {
  it("lists a member's session runs by userId and a key's runs by apiKeyId, and refuses both at once", async () => {
    const workflowId = await createWorkflow();
    const byAda = (await (await start(workflowId, member)).json()) as { runId: string };
    const byKey = (await (await start(workflowId, apiKeyMember("key-1"))).json()) as { runId: string };
    const byOtherKey = (await (await start(workflowId, apiKeyMember("key-2"))).json()) as { runId: string };

    expect(await listIds(workflowId, "?userId=user-ada")).toEqual([byAda.runId]);
    expect(await listIds(workflowId, "?apiKeyId=key-1")).toEqual([byKey.runId]);
    expect(await listIds(workflowId, "?apiKeyId=key-2")).toEqual([byOtherKey.runId]);
    // A key's runs are not its owner's session runs.
    expect(await listIds(workflowId, "?userId=user-key-owner")).toEqual([]);

    const run = await kit.endpoints.get(
      new Request(`http://localhost/api/runs/${byAda.runId}`),
      { id: byAda.runId },
      member,
    );
    expect(((await run.json()) as { trigger: unknown }).trigger).toEqual({ kind: "editor", userId: "user-ada" });

    const workspaceList = await kit.endpoints.listWorkspace(
      new Request(`http://localhost/api/runs?workflow=${workflowId}&apiKeyId=key-1`),
      {},
      member,
    );
    expect(((await workspaceList.json()) as { runs: Array<{ id: string }> }).runs.map((item) => item.id)).toEqual([
      byKey.runId,
    ]);

    const both = await kit.endpoints.list(
      new Request(`http://localhost/api/workflows/${workflowId}/runs?userId=user-ada&apiKeyId=key-1`),
      { id: workflowId },
      member,
    );
    expect(both.status).toBe(400);
  });
});
