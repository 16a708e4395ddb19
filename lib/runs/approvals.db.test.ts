import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunEvent } from "@/contract";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { agentWorkflow } from "@/tools/workflow/__fixtures__/agent-workflow";
import { startRunTestKit, type RunTestKit } from "./__fixtures__/run-test-kit";
import { approvalEndpoints, type ApprovalEndpoints } from "./approval-endpoints";
import type { LiveRun } from "./run-service";

let kit: RunTestKit;
let endpoints: ApprovalEndpoints;
let workflowId: string;
let ws: string;
let member: Member;

beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
  endpoints = approvalEndpoints(() => ({ runs: kit.runtime.runs, repositories: kit.database.repositories }));
  const document = agentWorkflow({
    name: "Careful maths",
    inputs: [{ name: "question", type: "string" }],
    userPrompt: "<start.question>",
    tools: [{ type: "calculator", requireApproval: true }],
  });
  workflowId = (await kit.database.repositories.workflows.create(ws, document as never)).id;
});
afterAll(() => kit.close());
beforeEach(() => {
  kit.server.requests.length = 0;
});

function nextEvent<T extends RunEvent["type"]>(live: LiveRun, type: T): Promise<Extract<RunEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = live.channel!.subscribe(0, ({ event }) => {
      if (event.type === type) {
        queueMicrotask(() => stop());
        resolve(event as Extract<RunEvent, { type: T }>);
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

function decide(runId: string, toolCallId: string, body: unknown) {
  return endpoints.decide(
    new Request(`http://localhost/api/runs/${runId}/approvals/${toolCallId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { id: runId, toolCallId },
    member,
  );
}

async function startWaitingRun(toolCallId: string, { thenAnswer = true } = {}) {
  kit.server.enqueue({
    kind: "tool-calls",
    calls: [{ id: toolCallId, name: "calculator", arguments: { expression: "6*7" } }],
  });
  if (thenAnswer) kit.server.enqueue({ kind: "text", text: "The answer is 42." });
  const live = await kit.runtime.runs.start(ws, workflowId, { question: "What is 6 times 7?" });
  const requested = await nextEvent(live, "tool.approval.requested");
  return { live, requested };
}

describe("tool approval", () => {
  it("pauses the run at the call, lists it, and goes on with the tool once a person approves", async () => {
    const { live, requested } = await startWaitingRun("call_ok");

    expect(requested).toMatchObject({
      runId: live.runId,
      blockId: "agent",
      toolCallId: "call_ok",
      toolName: "calculator",
      arguments: { expression: "6*7" },
    });
    expect(requested.spanId).toEqual(expect.any(String));
    expect(await statusBecomes(live.runId, "paused")).toBe("paused");
    expect(kit.server.requests).toHaveLength(1); // the model waits too
    const listed = (await (
      await endpoints.list(new Request(`http://localhost/api/runs/${live.runId}/approvals`), { id: live.runId }, member)
    ).json()) as {
      status: string;
      approvals: Array<{ toolCallId: string; toolName: string }>;
    };
    expect(listed).toMatchObject({
      status: "paused",
      approvals: [{ toolCallId: "call_ok", toolName: "calculator", arguments: { expression: "6*7" } }],
    });

    const response = await decide(live.runId, "call_ok", { approved: true });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      runId: live.runId,
      toolCallId: "call_ok",
      toolName: "calculator",
      approved: true,
    });

    const run = await live.done;
    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ answer: "The answer is 42." });
    // The attempt that went on got the first answer from the block's memo: the model was not asked it again.
    expect(kit.server.requests).toHaveLength(2);
    expect(kit.server.requests[1]!.parsed.allText).toContain("42");
    const stored = (await kit.database.repositories.runEvents.listAfter(live.runId)).map((item) => item.event);
    const types = stored.map((event) => event.type);
    expect(types.indexOf("tool.approval.requested")).toBeLessThan(types.indexOf("tool.approval.resolved"));
    expect(types.indexOf("tool.approval.resolved")).toBeLessThan(types.indexOf("run.completed"));
    expect(stored.find((event) => event.type === "tool.approval.resolved")).toMatchObject({
      toolCallId: "call_ok",
      approved: true,
      spanId: requested.spanId,
    });
    // The run parked at the call (that attempt's tool span was cut short) and went on in a new attempt, which ran the tool.
    const toolSpans = (await kit.database.repositories.runs.getWithSpans(ws, live.runId)).spans.filter(
      (span) => span.kind === "tool",
    );
    expect(toolSpans.map((span) => span.status)).toEqual(["cancelled", "succeeded"]);
    expect(toolSpans[0]!.id).toBe(requested.spanId);
    expect(toolSpans[1]).toMatchObject({ status: "succeeded", output: { expression: "6*7", result: 42 } });
    expect(types).toContain("run.paused");
    expect(stored.find((event) => event.type === "run.resumed")).toMatchObject({ reason: "approved" });
  });

  it("gives the model the denial and its reason instead of running the tool, and the run goes on", async () => {
    const { live } = await startWaitingRun("call_no");
    await statusBecomes(live.runId, "paused");

    const response = await decide(live.runId, "call_no", { approved: false, reason: "  not on Fridays " });
    expect(await response.json()).toMatchObject({ approved: false, reason: "not on Fridays" });

    const run = await live.done;
    expect(run.status).toBe("succeeded");
    expect(kit.server.requests[1]!.parsed.allText).toContain(
      'The call of \\"calculator\\" was denied by a person: not on Fridays',
    );
    const toolSpan = (await kit.database.repositories.runs.getWithSpans(ws, live.runId)).spans.findLast(
      (span) => span.kind === "tool",
    );
    expect(toolSpan).toMatchObject({ status: "failed", error: { code: "tool_denied" } });
    expect(toolSpan?.output).toBeUndefined();
  });

  it("ends a paused run when it is cancelled; the call can no longer be decided", async () => {
    const { live } = await startWaitingRun("call_cancel", { thenAnswer: false });
    expect(await statusBecomes(live.runId, "paused")).toBe("paused");

    await kit.runtime.runs.cancel(ws, live.runId);
    const run = await live.done;

    expect(run.status).toBe("cancelled");
    expect(kit.server.requests).toHaveLength(1);
    const late = await decide(live.runId, "call_cancel", { approved: true });
    expect(late.status).toBe(404);
    expect(((await late.json()) as { error: { message: string } }).error.message).toContain(
      'No tool call "call_cancel" is waiting for approval',
    );
    expect(await kit.runtime.runs.pendingApprovals(live.runId)).toEqual([]);
  });

  it("answers a malformed decision with 400 and an unknown run with 404", async () => {
    const bad = await decide("whatever", "call_x", { approved: "yes" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: Array<{ path: string }> } }).error.details[0]?.path).toBe(
      "approved",
    );
    const unknown = await decide("01900000-0000-7000-8000-000000000000", "call_x", { approved: true });
    expect(unknown.status).toBe(404);
  });
});
