import { describe, expect, it } from "vitest";
import type { AskAnswer, PendingAsk, RunEvent } from "@/contract";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness, type HarnessResult } from "./__fixtures__/run-harness";
import { answersFromEvents, RunAnswers } from "./runtime/run-answers";
import type { BlockCheckpoint, CheckpointStore } from "./runtime/checkpoint-store";

/**
 * Ask blocks in the engine, in memory: an ask waits while other paths go on, the run parks once
 * nothing but waiting asks is left (one `run.paused` per ask), and the attempt that goes on after
 * an answer finishes the answered ask, leaves by its choice, and lets the others wait again.
 */

const yesNo = [
  { id: "yes", label: "Yes" },
  { id: "no", label: "No" },
];

function memoryStore(): CheckpointStore & { saved: Map<string, BlockCheckpoint> } {
  const saved = new Map<string, BlockCheckpoint>();
  return { saved, restore: (key) => saved.get(key), save: async (key, checkpoint) => void saved.set(key, checkpoint) };
}

function answer(fields: Partial<AskAnswer>): AskAnswer {
  return {
    choice: null,
    text: null,
    fields: {},
    answeredBy: "ann@example.com",
    answeredAt: "2030-01-01T00:00:00.000Z",
    timedOut: false,
    ...fields,
  };
}

/** What a person answering on the parked run leaves in its stored events. */
function answeredEvent(ask: PendingAsk, given: AskAnswer): RunEvent {
  return {
    type: "ask.answered",
    runId: ask.runId,
    blockId: ask.blockId,
    spanId: ask.spanId,
    ...(ask.iteration ? { iteration: ask.iteration } : {}),
    ...given,
  };
}

const requested = (run: HarnessResult) =>
  run.events.flatMap((event) => (event.type === "ask.requested" ? [event] : []));
const paused = (run: HarnessResult) => run.events.flatMap((event) => (event.type === "run.paused" ? [event] : []));

describe("engine: ask blocks", () => {
  const twoAsks = workflow(
    [
      block("start", "start"),
      block("approve", "ask", { question: "Ship it?", choices: yesNo }),
      block("shipped", "task", { value: "shipped" }),
      block("held", "task", { value: "held" }),
      block("note", "ask", { question: "Any note?", allowText: true }),
      block("noted", "task", { value: "<note.text>" }),
    ],
    [
      edge("start", "approve"),
      edge("approve", "shipped", "choice:yes"),
      edge("approve", "held", "choice:no"),
      edge("start", "note"),
      edge("note", "noted", "out"),
    ],
  );

  it("parks with both asks of parallel branches waiting, then each answer finishes its own ask and the run goes down the chosen branch", async () => {
    const store = memoryStore();
    const first = await runHarness(twoAsks, { checkpoints: store, answers: new RunAnswers() });
    expect(first.result.status).toBe("paused");
    expect(paused(first).map((event) => [event.blockId, event.reason, event.question])).toEqual(
      expect.arrayContaining([
        ["approve", "ask", "Ship it?"],
        ["note", "ask", "Any note?"],
      ]),
    );
    expect(paused(first).find((event) => event.blockId === "approve")?.choices).toEqual(yesNo);
    const asks = requested(first);
    expect(asks.map((ask) => ask.blockId).sort()).toEqual(["approve", "note"]);
    // Nothing after the asks ran, and their spans stay open while they wait.
    expect(first.started("shipped")).toEqual([]);
    const approveAsk = asks.find((ask) => ask.blockId === "approve")!;
    expect(first.spans.filter((span) => span.id === approveAsk.spanId).at(-1)?.status).toBe("running");

    // The person answers the first ask only: that branch goes on, the other ask waits again under its span.
    const events: RunEvent[] = [...first.events, answeredEvent(approveAsk, answer({ choice: "yes" }))];
    const second = await runHarness(twoAsks, {
      checkpoints: store,
      answers: answersFromEvents(events),
      resume: { reason: "answered", startedAt: Date.now() },
    });
    expect(second.result.status).toBe("paused");
    expect(second.completed("shipped")).toHaveLength(1);
    expect(second.skipped).toContain("held");
    expect(paused(second).map((event) => event.blockId)).toEqual(["note"]);
    const noteAsk = asks.find((ask) => ask.blockId === "note")!;
    expect(paused(second)[0]?.spanId).toBe(noteAsk.spanId);
    expect(requested(second)).toEqual([]);
    const approveSpan = second.spans.filter((span) => span.id === approveAsk.spanId).at(-1);
    expect(approveSpan).toMatchObject({
      status: "succeeded",
      output: { choice: "yes", answeredBy: "ann@example.com" },
    });

    events.push(...second.events, answeredEvent(noteAsk, answer({ text: "ship on Monday" })));
    const third = await runHarness(twoAsks, {
      checkpoints: store,
      answers: answersFromEvents(events),
      resume: { reason: "answered", startedAt: Date.now() },
    });
    expect(third.result.status).toBe("succeeded");
    expect(third.completed("noted")[0]).toMatchObject({ output: { value: "ship on Monday" } });
    // Finished blocks were restored, not run again.
    expect(third.started("shipped")).toEqual([]);
    expect(third.log.calls.map((call) => call.blockId)).toEqual(["noted"]);
  });

  it("takes an answer given while another path is still busy without pausing the run", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("approve", "ask", { question: "Ship it?", choices: yesNo }),
        block("shipped", "task", { value: "shipped" }),
        block("held", "task", { value: "held" }),
        block("slow", "task", { delayMs: 150, value: "slow" }),
      ],
      [
        edge("start", "approve"),
        edge("approve", "shipped", "choice:yes"),
        edge("approve", "held", "choice:no"),
        edge("start", "slow"),
      ],
    );
    const desk = new RunAnswers();
    const run = await runHarness(document, {
      answers: desk,
      onEvent: (event) => {
        if (event.type === "ask.requested") setTimeout(() => desk.deliver(event.spanId, answer({ choice: "no" })), 20);
      },
    });
    expect(run.result.status).toBe("succeeded");
    expect(paused(run)).toEqual([]);
    expect(run.completed("held")).toHaveLength(1);
    expect(run.skipped).toContain("shipped");
    expect(run.events.find((event) => event.type === "ask.answered")).toMatchObject({
      blockId: "approve",
      choice: "no",
      answeredBy: "ann@example.com",
    });
  });

  it("leaves by its timeout handle when nobody answers in time", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("approve", "ask", { question: "Ship it?", choices: yesNo, timeoutMs: 40 }),
        block("shipped", "task", { value: "shipped" }),
        block("expired", "task", { value: "nobody answered" }),
        block("slow", "task", { delayMs: 150 }),
      ],
      [
        edge("start", "approve"),
        edge("approve", "shipped", "choice:yes"),
        edge("approve", "expired", "timeout"),
        edge("start", "slow"),
      ],
    );
    const run = await runHarness(document, { answers: new RunAnswers() });
    expect(run.result.status).toBe("succeeded");
    expect(run.completed("approve")[0]).toMatchObject({ output: { timedOut: true, choice: null, answeredBy: null } });
    expect(run.completed("expired")).toHaveLength(1);
    expect(run.skipped).toContain("shipped");
  });

  it("times out at once on resume when its deadline passed while the run was parked", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("approve", "ask", { question: "Ship it?", timeoutMs: 60_000 }),
        block("expired", "task", { value: "late" }),
      ],
      [edge("start", "approve"), edge("approve", "expired", "timeout")],
    );
    const store = memoryStore();
    const first = await runHarness(document, { checkpoints: store, answers: new RunAnswers() });
    expect(first.result.status).toBe("paused");
    const ask = requested(first)[0]!;
    expect(Date.parse(ask.timeoutAt!) - Date.parse(ask.requestedAt)).toBeGreaterThanOrEqual(59_000);
    const overdue = first.events.map((event) =>
      event.type === "ask.requested" ? { ...event, timeoutAt: new Date(Date.now() - 1).toISOString() } : event,
    );
    const second = await runHarness(document, {
      checkpoints: store,
      answers: answersFromEvents(overdue),
      resume: { reason: "answered", startedAt: Date.now() },
    });
    expect(second.result.status).toBe("succeeded");
    expect(second.completed("expired")).toHaveLength(1);
    expect(second.events.find((event) => event.type === "ask.answered")).toMatchObject({
      spanId: ask.spanId,
      timedOut: true,
    });
  });

  it("parks with one ask per parallel branch, even when the branches outnumber the concurrency cap", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fanout", "parallel", { kind: "collection", collection: ["a", "b", "c"], concurrency: 3 }),
        block("confirm", "ask", { question: "Confirm <parallel.item>?" }, { parentId: "fanout" }),
      ],
      [edge("start", "fanout"), edge("fanout", "confirm", "body")],
    );
    const run = await runHarness(document, { answers: new RunAnswers(), checkpoints: memoryStore(), concurrency: 2 });
    expect(run.result.status).toBe("paused");
    expect(
      paused(run)
        .map((event) => event.question)
        .sort(),
    ).toEqual(["Confirm a?", "Confirm b?", "Confirm c?"]);
    expect(
      requested(run)
        .map((ask) => ask.iteration)
        .sort(),
    ).toEqual([[0], [1], [2]]);
  });

  it("fails the block with a clear error where the run cannot wait (no answers desk)", async () => {
    const document = workflow(
      [block("start", "start"), block("approve", "ask", { question: "Ship it?" })],
      [edge("start", "approve")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.result.error?.message).toContain("cannot stop to ask a person here");
  });
});
