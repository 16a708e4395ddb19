import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Member } from "@/lib/auth";
import { testMember } from "@/lib/http/test-members";
import { resolvePricing } from "@/providers";
import { parseSse, startRunTestKit, supportRoutingDocument, type RunTestKit } from "./__fixtures__/run-test-kit";

let kit: RunTestKit;
let ws: string;
let member: Member;
beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
  member = testMember(ws, "editor");
});
afterAll(() => kit.close());

async function createWorkflow(document: unknown): Promise<string> {
  return (await kit.database.repositories.workflows.create(ws, document as never)).id;
}

function startRun(workflowId: string, body: unknown, accept = "application/json") {
  return kit.endpoints.start(
    new Request(`http://localhost/api/workflows/${workflowId}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify(body),
    }),
    { id: workflowId },
    member,
  );
}

const getRun = (runId: string) =>
  kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, member);
const runEvents = (runId: string, headers: Record<string, string> = {}) =>
  kit.endpoints.events(new Request(`http://localhost/api/runs/${runId}/events`, { headers }), { id: runId }, member);
const listRuns = (workflowId: string, query = "") =>
  kit.endpoints.list(
    new Request(`http://localhost/api/workflows/${workflowId}/runs${query}`),
    { id: workflowId },
    member,
  );

describe("runs over the API: support routing against the test LLM server", () => {
  it("runs only the chosen agent, streams its text, and reports tokens and cost equal to usage times the catalog price", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("openai/gpt-4o-mini"));
    kit.server.enqueue(
      { kind: "text", text: "support", usage: { prompt: 412, completion: 3 } },
      {
        kind: "text",
        text: "Sorry your order arrived broken. A refund is on its way.",
        chunks: ["Sorry your order ", "arrived broken. ", "A refund is on its way."],
        delayMs: 5,
        usage: { prompt: 96, completion: 14, cachedPrompt: 64 },
      },
    );
    const response = await startRun(
      workflowId,
      { input: { message: "My order arrived broken, I need support" } },
      "text/event-stream",
    );
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await response.text());

    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => index + 1));
    const types = events.map((event) => `${event.event}${event.data.blockId ? `:${event.data.blockId}` : ""}`);
    expect(types).toContain("block.completed:support");
    expect(types).toContain("block.skipped:sales");
    expect(types).not.toContain("block.started:sales");
    const deltas = events.filter((event) => event.event === "block.delta").map((event) => event.data.text);
    expect(deltas.join("")).toBe("Sorry your order arrived broken. A refund is on its way.");
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    const firstDelta = events.findIndex((event) => event.event === "block.delta");
    expect(firstDelta).toBeLessThan(types.indexOf("block.completed:support"));

    const prices = resolvePricing("openai/gpt-4o-mini")!.prices;
    const routerCost = (412 * prices.input + 3 * prices.output) / 1e6;
    const agentCost = ((96 - 64) * prices.input + 64 * (prices.cachedInput ?? prices.input) + 14 * prices.output) / 1e6;
    const completed = events.at(-1)!;
    expect(completed.event).toBe("run.completed");
    expect(completed.data.output).toEqual({
      team: "support",
      answer: "Sorry your order arrived broken. A refund is on its way.",
    });
    expect(completed.data.tokens).toMatchObject({ prompt: 508, completion: 17, total: 525, cachedPrompt: 64 });
    expect((completed.data.cost as { total: number }).total).toBeCloseTo(routerCost + agentCost, 10);

    // The same figures in GET /api/runs/:id, its spans, and the block events: one source.
    const runId = completed.data.runId as string;
    const stored = (await (await getRun(runId)).json()) as {
      status: string;
      tokens: { total: number };
      cost: { total: number };
      spans: Array<{ kind: string; blockId: string; tokens: { total: number } | null; cost: { total: number } | null }>;
    };
    expect(stored.status).toBe("succeeded");
    expect(stored.tokens.total).toBe(525);
    expect(stored.cost.total).toBe((completed.data.cost as { total: number }).total);
    const blockSpans = stored.spans.filter((span) => span.kind === "block");
    const spanTokens = blockSpans.reduce((sum, span) => sum + (span.tokens?.total ?? 0), 0);
    expect(spanTokens).toBe(525);
    const modelSpans = stored.spans.filter((span) => span.kind === "model");
    expect(modelSpans.map((span) => span.blockId).sort()).toEqual(["router", "support"]);
    const agentEvent = events.find((event) => event.event === "block.completed" && event.data.blockId === "support")!;
    expect((agentEvent.data.cost as { total: number }).total).toBeCloseTo(agentCost, 10);
    expect(blockSpans.find((span) => span.blockId === "support")?.cost?.total).toBe(
      (agentEvent.data.cost as { total: number }).total,
    );
  });

  it("flags an unpriced model instead of a made-up zero", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("openai-compatible/my-local-model"));
    const response = await startRun(workflowId, { input: { message: "I need support" }, wait: true });
    const run = (await response.json()) as {
      status: string;
      cost: unknown;
      unpriced: boolean;
      tokens: { total: number };
    };
    expect(run.status).toBe("succeeded");
    expect(run.cost).toBeNull();
    expect(run.unpriced).toBe(true);
    expect(run.tokens.total).toBeGreaterThan(0);
  });

  it("runs the same workflow on the offline model with no key and no network", async () => {
    const requestsBefore = kit.server.requests.length;
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const response = await startRun(workflowId, {
      input: { message: "Please help, I need support with a refund" },
      wait: true,
    });
    const run = (await response.json()) as {
      status: string;
      output: { team: string };
      cost: { total: number };
      tokens: { total: number };
      spans: Array<{ blockId: string }>;
    };
    expect(run.status).toBe("succeeded");
    expect(run.output.team).toBe("support");
    expect(run.cost.total).toBe(0);
    expect(run.tokens.total).toBeGreaterThan(0);
    expect(run.spans.some((span) => span.blockId === "sales")).toBe(false);
    expect(kit.server.requests.length).toBe(requestsBefore);
  });

  it("answers 202 with a run id in the background, replays events after Last-Event-ID, and lists runs newest first", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const accepted = await startRun(workflowId, { input: { message: "support please" } });
    expect(accepted.status).toBe(202);
    const { runId } = (await accepted.json()) as { runId: string };
    const all = parseSse(await (await runEvents(runId)).text());
    expect(all.at(-1)?.event).toBe("run.completed");
    const after = parseSse(await (await runEvents(runId, { "last-event-id": "3" })).text());
    expect(after.map((event) => event.id)).toEqual(all.slice(3).map((event) => event.id));

    await startRun(workflowId, { input: { message: "second" }, wait: true });
    const listed = (await (await listRuns(workflowId)).json()) as { runs: Array<{ id: string; status: string }> };
    expect(listed.runs).toHaveLength(2);
    expect(listed.runs[1]?.id).toBe(runId);
    const failedOnly = (await (await listRuns(workflowId, "?status=failed")).json()) as { runs: unknown[] };
    expect(failedOnly.runs).toEqual([]);
  });

  it("cancels a slow run within a second, and the stream ends with run.cancelled", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("openai/gpt-4o-mini"));
    kit.server.enqueue({ kind: "text", text: "support" }, { kind: "hang" });
    const accepted = await startRun(workflowId, { input: { message: "support" } });
    const { runId } = (await accepted.json()) as { runId: string };
    const stream = runEvents(runId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cancelledAt = Date.now();
    expect(
      (
        await kit.endpoints.cancel(
          new Request(`http://localhost/api/runs/${runId}/cancel`, { method: "POST" }),
          { id: runId },
          member,
        )
      ).status,
    ).toBe(202);
    const events = parseSse(await (await stream).text());
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    expect(events.at(-1)?.event).toBe("run.cancelled");
    await kit.runtime.runs.liveRun(runId)?.done;
    const run = (await (await getRun(runId)).json()) as { status: string };
    expect(run.status).toBe("cancelled");
  });

  it("fails a run of an unfinished draft with the same message the save returned", async () => {
    const draft = supportRoutingDocument("offline/echo") as {
      blocks: Array<{ id: string; config: Record<string, unknown> }>;
    };
    delete draft.blocks.find((block) => block.id === "support")!.config.userPrompt;
    const workflowId = await createWorkflow(draft);
    const run = (await (await startRun(workflowId, { input: { message: "support" }, wait: true })).json()) as {
      status: string;
      error: { code: string; message: string };
    };
    expect(run.status).toBe("failed");
    expect(run.error.code).toBe("invalid_workflow");
    // In people's words: the block, the field by its inspector label, what it needs; never the schema path or zod's text.
    expect(run.error.message).toBe(
      "The workflow is invalid: Block 'Support Agent': User prompt: Write the prompt the model answers",
    );
    expect(run.error.message).not.toMatch(/userPrompt|Invalid input/);
  });

  it("starts a run in the background from an empty body", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const accepted = await kit.endpoints.start(
      new Request(`http://localhost/api/workflows/${workflowId}/runs`, { method: "POST" }),
      { id: workflowId },
      member,
    );
    expect(accepted.status).toBe(202);
    const { runId } = (await accepted.json()) as { runId: string };
    await kit.runtime.runs.liveRun(runId)?.done;
    expect(((await (await getRun(runId)).json()) as { status: string }).status).toBe("failed");
  });

  it("refuses a malformed run request and an unknown workflow", async () => {
    const bad = await kit.endpoints.start(
      new Request("http://localhost/api/workflows/x/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: "nope" }),
      }),
      { id: "x" },
      member,
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: Array<{ path: string }> } }).error.details[0]?.path).toBe(
      "input",
    );
    // Start inputs sent at the top level instead of under `input` are named, not silently dropped.
    const misplaced = await kit.endpoints.start(
      new Request("http://localhost/api/workflows/x/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "hello" }),
      }),
      { id: "x" },
      member,
    );
    expect(misplaced.status).toBe(400);
    expect(((await misplaced.json()) as { error: { message: string } }).error.message).toMatch(/message/);
    const missing = await startRun("no-such-workflow", {});
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain("no-such-workflow");
  });
});

describe("a run no process will finish", () => {
  it("ends with its final event, a duration and no span left running", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const { runs, runEvents } = kit.database.repositories;
    const orphan = await runs.create({
      workspaceId: ws,
      workflowId,
      status: "running",
      startedAt: new Date(Date.now() - 5_000),
    });
    await runEvents.append(orphan.id, [
      { seq: 1, event: { type: "run.started", runId: orphan.id, workflowId, startedAt: orphan.startedAt } },
    ]);
    await kit.database.repositories.runWriter.write({
      runId: orphan.id,
      spans: [
        {
          id: "span-1",
          runId: orphan.id,
          parentId: null,
          kind: "block",
          blockId: "b",
          blockName: "B",
          blockType: "agent",
          status: "running",
          startedAt: orphan.startedAt,
        },
      ],
    });
    const lost = {
      status: "failed" as const,
      error: { code: "worker_lost" as const, message: "The process executing this run stopped." },
    };
    expect(await kit.runtime.runs.endLost(orphan, lost, ["running", "paused"])).toBe(true);
    expect(await kit.runtime.runs.endLost(orphan, lost, ["running", "paused"])).toBe(false);
    const run = (await (await getRun(orphan.id)).json()) as {
      status: string;
      error: { message: string };
      durationMs: number;
      spans: Array<{ status: string }>;
    };
    expect(run.status).toBe("failed");
    expect(run.error.message).toMatch(/process executing this run stopped/);
    expect(run.durationMs).toBeGreaterThanOrEqual(5_000);
    expect(run.spans.map((span) => span.status)).toEqual(["failed"]);
    const events = await runEvents.listAfter(orphan.id, 0);
    expect(events.map((item) => [item.seq, item.event.type])).toEqual([
      [1, "run.started"],
      [2, "run.failed"],
    ]);
  });

  it("cancelled: its spans still running end cancelled, saying why, not failed", async () => {
    const workflowId = await createWorkflow(supportRoutingDocument("offline/echo"));
    const { runs } = kit.database.repositories;
    const orphan = await runs.create({
      workspaceId: ws,
      workflowId,
      status: "running",
      startedAt: new Date(Date.now() - 1_000),
    });
    const span = {
      runId: orphan.id,
      parentId: null,
      kind: "block" as const,
      blockId: "b",
      blockName: "B",
      blockType: "function",
      status: "running" as const,
    };
    await kit.database.repositories.runWriter.write({
      runId: orphan.id,
      spans: [{ id: "span-c", ...span, startedAt: orphan.startedAt }],
    });
    const cancel = {
      status: "cancelled" as const,
      error: { code: "cancelled" as const, message: "The run was cancelled" },
    };
    expect(await kit.runtime.runs.endLost(orphan, cancel, ["running", "paused"])).toBe(true);
    const run = (await (await getRun(orphan.id)).json()) as {
      status: string;
      spans: Array<{ status: string; error: { message: string } | null }>;
    };
    expect(run.status).toBe("cancelled");
    expect(run.spans).toEqual([
      expect.objectContaining({
        status: "cancelled",
        error: expect.objectContaining({ message: "The run was cancelled while this was running" }),
      }),
    ]);
  });
});
