import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { agentWorkflow } from "@/tools/workflow/__fixtures__/agent-workflow";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "./__fixtures__/run-test-kit";
import { approvalEndpoints, type ApprovalEndpoints } from "./approval-endpoints";
import type { LiveRun } from "./run-service";

/**
 * Runs belong to their workflow's workspace: every run endpoint answers 404 for another
 * workspace's run or workflow, like an unknown id, and changes nothing; a viewer reads but
 * neither starts nor cancels.
 */

let kit: RunTestKit;
let approvals: ApprovalEndpoints;
let ws: string;
let editor: Member;
let viewer: Member;
/** A member (an owner, so no role check stands in the way) of another workspace. */
let stranger: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  approvals = approvalEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
  ws = await kit.database.createWorkspace("Mine");
  editor = testMember(ws, "editor");
  viewer = testMember(ws, "viewer");
  stranger = testMember(await kit.database.createWorkspace("Theirs"), "owner");
});
afterAll(() => kit.close());

const json = { "content-type": "application/json" };

async function createWorkflow(document: unknown): Promise<string> {
  return (await kit.database.repositories.workflows.create(ws, document as never)).id;
}

const start = (workflowId: string, as: Member, body: unknown = { input: { message: "support please" } }) =>
  kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    }),
    { id: workflowId },
    as,
  );
const get = (runId: string, as: Member) =>
  kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, as);
const events = (runId: string, as: Member) =>
  kit.endpoints.events(new Request(`http://localhost/api/runs/${runId}/events`), { id: runId }, as);
const list = (workflowId: string, as: Member) =>
  kit.endpoints.list(new Request(`http://localhost/api/workflows/${workflowId}/runs`), { id: workflowId }, as);
const cancel = (runId: string, as: Member) =>
  kit.endpoints.cancel(new Request(`http://localhost/api/runs/${runId}/cancel`, { method: "POST" }), { id: runId }, as);
const listApprovals = (runId: string, as: Member) =>
  approvals.list(new Request(`http://localhost/api/runs/${runId}/approvals`), { id: runId }, as);
const decide = (runId: string, toolCallId: string, as: Member, body: unknown = { approved: true }) =>
  approvals.decide(
    new Request(`http://localhost/api/runs/${runId}/approvals/${toolCallId}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(body),
    }),
    { id: runId, toolCallId },
    as,
  );

async function expectStatus(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
}

function nextEvent(live: LiveRun, type: RunEvent["type"]): Promise<RunEvent> {
  return new Promise((resolve) => {
    const stop = live.channel!.subscribe(0, ({ event }) => {
      if (event.type === type) {
        queueMicrotask(() => stop());
        resolve(event);
      }
    });
  });
}

async function statusBecomes(runId: string, status: string): Promise<string> {
  const deadline = Date.now() + 5000;
  let current = "";
  while (Date.now() < deadline) {
    current = (await kit.database.repositories.runs.get(ws, runId)).status;
    if (current === status) return current;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return current;
}

describe("another workspace", () => {
  it("cannot start a run of the workflow, nor list its runs (404), and no run is stored", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const before = await kit.database.prisma.run.count();
    await expectStatus(await start(workflowId, stranger), 404, "not_found");
    await expectStatus(
      await start(workflowId, stranger, { input: { message: "support" }, wait: true }),
      404,
      "not_found",
    );
    await expectStatus(await list(workflowId, stranger), 404, "not_found");
    expect(await kit.database.prisma.run.count()).toBe(before);
    // The workspace's own member can.
    expect((await start(workflowId, editor, { input: { message: "support" }, wait: true })).status).toBe(200);
    expect((await list(workflowId, editor)).status).toBe(200);
  });

  it("gets 404 for a finished run on get and events, and cancelling it changes nothing", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const finished = (await (
      await start(workflowId, editor, { input: { message: "support" }, wait: true })
    ).json()) as { id: string; status: string };
    expect(finished.status).toBe("succeeded");

    const read = await get(finished.id, stranger);
    expect(read.status).toBe(404);
    expect(await read.text()).not.toContain("support");
    await expectStatus(await events(finished.id, stranger), 404, "not_found");
    await expectStatus(await cancel(finished.id, stranger), 404, "not_found");
    await expectStatus(await listApprovals(finished.id, stranger), 404, "not_found");
    expect(((await (await get(finished.id, editor)).json()) as { status: string }).status).toBe("succeeded");
  });

  it("gets 404 on a live run waiting for approval: get, events, cancel, approvals list and decide, and the run waits on untouched", async () => {
    const workflowId = await createWorkflow(
      agentWorkflow({
        name: "Careful maths",
        inputs: [{ name: "question", type: "string" }],
        userPrompt: "<start.question>",
        tools: [{ type: "calculator", requireApproval: true }],
      }),
    );
    kit.server.enqueue({
      kind: "tool-calls",
      calls: [{ id: "call_scoped", name: "calculator", arguments: { expression: "6*7" } }],
    });
    const live = await kit.runtime.runs.start(ws, workflowId, { question: "What is 6 times 7?" });
    await nextEvent(live, "tool.approval.requested");
    expect(await statusBecomes(live.runId, "paused")).toBe("paused");

    await expectStatus(await get(live.runId, stranger), 404, "not_found");
    await expectStatus(await events(live.runId, stranger), 404, "not_found");
    await expectStatus(await listApprovals(live.runId, stranger), 404, "not_found");
    await expectStatus(await decide(live.runId, "call_scoped", stranger), 404, "not_found");
    await expectStatus(await cancel(live.runId, stranger), 404, "not_found");
    await expect(kit.runtime.runs.cancel(stranger.workspace.id, live.runId)).rejects.toMatchObject({
      code: "not_found",
    });

    // Still paused, the call still waiting, for the run's own workspace.
    expect(await statusBecomes(live.runId, "paused")).toBe("paused");
    const pending = (await (await listApprovals(live.runId, editor)).json()) as {
      approvals: Array<{ toolCallId: string }>;
    };
    expect(pending.approvals.map((approval) => approval.toolCallId)).toEqual(["call_scoped"]);

    // A viewer of the workspace reads it but neither decides nor cancels.
    expect((await get(live.runId, viewer)).status).toBe(200);
    expect((await listApprovals(live.runId, viewer)).status).toBe(200);
    await expectStatus(await decide(live.runId, "call_scoped", viewer), 403, "forbidden");
    await expectStatus(await cancel(live.runId, viewer), 403, "forbidden");
    expect(await statusBecomes(live.runId, "paused")).toBe("paused");

    expect((await cancel(live.runId, editor)).status).toBe(202);
    expect((await live.done).status).toBe("cancelled");
  });
});

describe("a viewer", () => {
  it("gets 403 on start, and no run is stored; reading runs is allowed", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const before = await kit.database.prisma.run.count();
    await expectStatus(await start(workflowId, viewer), 403, "forbidden");
    await expectStatus(
      await start(workflowId, viewer, { input: { message: "support" }, wait: true }),
      403,
      "forbidden",
    );
    expect(await kit.database.prisma.run.count()).toBe(before);
    expect((await list(workflowId, viewer)).status).toBe(200);
  });

  it("gets 403 on cancel of a running run, which goes on", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("openai/gpt-4o-mini"));
    kit.server.enqueue({ kind: "text", text: "support" }, { kind: "hang" });
    const accepted = await start(workflowId, editor);
    const { runId } = (await accepted.json()) as { runId: string };
    expect(await statusBecomes(runId, "running")).toBe("running");

    await expectStatus(await cancel(runId, viewer), 403, "forbidden");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await kit.database.repositories.runs.get(ws, runId)).status).toBe("running");

    expect((await cancel(runId, editor)).status).toBe(202);
    expect((await kit.runtime.runs.liveRun(runId)?.done)?.status).toBe("cancelled");
  });
});
