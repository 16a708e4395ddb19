import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunEvent, type SequencedRunEvent } from "@/contract";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { reduceRun, reduceRunEvents } from "./run-reducer";
import { initialRunView } from "./run-view";
import { testMember } from "@/lib/http/test-members";

const BLOCK_IDS = ["start", "router", "sales", "support", "response"];

let kit: RunTestKit;
let workspaceId: string;
beforeAll(async () => {
  kit = await startRunTestKit();
  workspaceId = await kit.database.createWorkspace();
});
afterAll(() => kit.close());

async function recordRun(
  model: string,
  message: string,
  script?: () => void,
): Promise<{ runId: string; events: SequencedRunEvent[] }> {
  const workflow = await kit.database.repositories.workflows.create(
    workspaceId,
    supportRoutingDocument(model) as never,
  );
  script?.();
  const live = await kit.runtime.runs.start(workspaceId, workflow.id, { message });
  const events: SequencedRunEvent[] = [];
  live.channel!.subscribe(0, (item) => events.push(item));
  await live.done;
  return { runId: live.runId, events };
}

describe("the run reducer over a real run", () => {
  it("rebuilds the canvas state with the same figures as GET /api/runs/:id", async () => {
    const { runId, events } = await recordRun("openai/gpt-4o-mini", "My parcel is broken, I need support", () =>
      kit.server.enqueue(
        { kind: "text", text: "support", usage: { prompt: 300, completion: 2 } },
        {
          kind: "text",
          text: "We are sorry. A refund is on its way.",
          chunks: ["We are sorry. ", "A refund ", "is on its way."],
          usage: { prompt: 90, completion: 11, cachedPrompt: 40 },
        },
      ),
    );
    const view = reduceRunEvents(initialRunView(runId, BLOCK_IDS), events);
    const stored = (await (
      await kit.endpoints.get(new Request(`http://localhost/api/runs/${runId}`), { id: runId }, testMember(workspaceId))
    ).json()) as {
      status: string;
      tokens: { total: number };
      cost: { total: number };
      durationMs: number;
      spans: Array<{
        kind: string;
        blockId: string;
        tokens: { total: number } | null;
        cost: { total: number } | null;
        durationMs: number;
      }>;
    };

    expect(view.status).toBe("succeeded");
    expect(view.ended).toBe(true);
    expect(view.blocks.sales?.status).toBe("skipped");
    expect(view.blocks.support?.status).toBe("succeeded");
    expect(view.blocks.support?.text).toBe("We are sorry. A refund is on its way.");
    expect(view.blocks.response?.status).toBe("succeeded");
    expect(view.tokens?.total).toBe(stored.tokens.total);
    expect(view.cost?.total).toBe(stored.cost.total);
    for (const span of stored.spans.filter((item) => item.kind === "block")) {
      expect(view.blocks[span.blockId]?.tokens?.total ?? null).toBe(span.tokens?.total ?? null);
      expect(view.blocks[span.blockId]?.cost?.total ?? null).toBe(span.cost?.total ?? null);
    }
    // The console merges the streamed chunks of one block into one line.
    const textLines = view.log.filter((entry) => entry.type === "block.delta");
    expect(textLines).toHaveLength(1);
    expect(textLines[0]?.text).toBe("We are sorry. A refund is on its way.");
    expect(view.log.at(-1)?.text).toBe("Run succeeded");
  });

  it("gives the same state whether events arrive once, twice (a resumed stream) or replayed later", async () => {
    const { runId, events } = await recordRun("offline/echo", "support please");
    const once = reduceRunEvents(initialRunView(runId, BLOCK_IDS), events);
    const resumed = reduceRunEvents(
      reduceRunEvents(initialRunView(runId, BLOCK_IDS), events.slice(0, 5)),
      events.slice(2),
    );
    expect(resumed).toEqual(once);
    const otherRun: SequencedRunEvent = { seq: 999, event: { type: "run.cancelled", runId: "someone-else" } };
    expect(reduceRun(once, otherRun)).toBe(once);
  });
});

describe("the run reducer over events the engine sends in loops, cancels and approvals", () => {
  const run = (events: RunEvent[]) =>
    reduceRunEvents(
      initialRunView("r1", ["loop", "step", "never"]),
      events.map((event, index) => ({ seq: index + 1, event })),
    );
  const tokens = (prompt: number, completion: number) => ({ prompt, completion, total: prompt + completion });

  it("adds up a block that ran in every iteration, and marks unpriced when one part had no price", () => {
    const view = run([
      { type: "run.started", runId: "r1", workflowId: "w", startedAt: "2026-01-01T00:00:00.000Z" },
      {
        type: "block.started",
        runId: "r1",
        blockId: "step",
        blockName: "Step",
        blockType: "agent",
        spanId: "s1",
        iteration: [0],
        startedAt: "2026-01-01T00:00:00.010Z",
      },
      {
        type: "block.completed",
        runId: "r1",
        blockId: "step",
        spanId: "s1",
        output: 1,
        durationMs: 10,
        tokens: tokens(10, 5),
        cost: { input: 0.001, output: 0.002, total: 0.003 },
      },
      {
        type: "block.started",
        runId: "r1",
        blockId: "step",
        blockName: "Step",
        blockType: "agent",
        spanId: "s2",
        iteration: [1],
        startedAt: "2026-01-01T00:00:00.030Z",
      },
      {
        type: "block.completed",
        runId: "r1",
        blockId: "step",
        spanId: "s2",
        output: 2,
        durationMs: 20,
        tokens: tokens(1, 1),
        cost: null,
        unpriced: true,
      },
    ]);
    expect(view.blocks.step).toMatchObject({
      status: "succeeded",
      runs: 2,
      durationMs: 30,
      tokens: tokens(11, 6),
      cost: null,
      unpriced: true,
    });
    expect(view.tokens).toEqual(tokens(11, 6));
    expect(view.unpriced).toBe(true);
  });

  it("ends a cancelled run with the running block cut short and unreached blocks cleared", () => {
    const view = run([
      { type: "run.started", runId: "r1", workflowId: "w", startedAt: "2026-01-01T00:00:00.000Z" },
      {
        type: "block.started",
        runId: "r1",
        blockId: "step",
        blockName: "Step",
        blockType: "agent",
        spanId: "s1",
        startedAt: "2026-01-01T00:00:00.010Z",
      },
      { type: "block.delta", runId: "r1", blockId: "step", spanId: "s1", text: "Hel" },
      { type: "run.cancelled", runId: "r1" },
    ]);
    expect(view.status).toBe("cancelled");
    // Cut short, not broken: cancelled with its reason, and the console names it.
    expect(view.blocks.step).toMatchObject({
      status: "cancelled",
      text: "Hel",
      error: { code: "cancelled", message: "The run was cancelled while this block was running" },
    });
    expect(view.log.map((entry) => entry.text).slice(-2)).toEqual([
      "Step cancelled: the run was cancelled while it was running",
      "Run cancelled",
    ]);
    expect(view.blocks.never).toBeUndefined();
  });

  it("pauses for a tool approval and resumes once it is decided", () => {
    const requested: RunEvent = {
      type: "tool.approval.requested",
      runId: "r1",
      blockId: "step",
      spanId: "t1",
      toolCallId: "c1",
      toolName: "send_mail",
      arguments: { to: "a@b.c" },
      requestedAt: "2026-01-01T00:00:01.000Z",
    };
    const paused = run([
      { type: "run.started", runId: "r1", workflowId: "w", startedAt: "2026-01-01T00:00:00.000Z" },
      requested,
    ]);
    expect(paused.status).toBe("paused");
    expect(paused.approvals).toEqual([expect.objectContaining({ toolCallId: "c1", toolName: "send_mail" })]);
    const resumed = reduceRun(paused, {
      seq: 3,
      event: {
        type: "tool.approval.resolved",
        runId: "r1",
        blockId: "step",
        spanId: "t1",
        toolCallId: "c1",
        toolName: "send_mail",
        approved: false,
        reason: "not now",
        resolvedAt: "2026-01-01T00:00:02.000Z",
      },
    });
    expect(resumed.status).toBe("running");
    expect(resumed.approvals[0]?.decision).toEqual({ approved: false, reason: "not now" });
    expect(resumed.log.at(-1)?.text).toBe("send_mail denied: not now");
  });

  it("keeps each ask by its span: asked once across the run's stops, then answered with who answered", () => {
    const asked: RunEvent = {
      type: "ask.requested",
      runId: "r1",
      blockId: "confirm",
      spanId: "a1",
      question: "Ship it?",
      choices: [{ id: "yes", label: "Yes" }],
      allowText: false,
      fields: [],
      requestedAt: "2026-01-01T00:00:01.000Z",
    };
    const paused = run([
      { type: "run.started", runId: "r1", workflowId: "w", startedAt: "2026-01-01T00:00:00.000Z" },
      asked,
      {
        type: "run.paused",
        runId: "r1",
        blockId: "confirm",
        spanId: "a1",
        reason: "ask",
        question: "Ship it?",
        pausedAt: "2026-01-01T00:00:02.000Z",
      },
    ]);
    expect(paused.status).toBe("paused");
    expect(paused.asks).toEqual([expect.objectContaining({ spanId: "a1", question: "Ship it?" })]);
    const answered = reduceRunEvents(paused, [
      {
        seq: 4,
        event: {
          type: "ask.answered",
          runId: "r1",
          blockId: "confirm",
          spanId: "a1",
          choice: "yes",
          text: null,
          fields: {},
          answeredBy: "ann@example.com",
          answeredAt: "2026-01-01T00:00:03.000Z",
          timedOut: false,
        },
      },
      {
        seq: 5,
        event: { type: "run.resumed", runId: "r1", reason: "answered", resumedAt: "2026-01-01T00:00:03.000Z" },
      },
    ]);
    expect(answered.status).toBe("running");
    expect(answered.asks).toHaveLength(1);
    expect(answered.asks[0]?.answer).toMatchObject({ choice: "yes", answeredBy: "ann@example.com" });
    expect(answered.log.map((entry) => entry.text)).toContain("confirm answered yes by ann@example.com");
  });
});
