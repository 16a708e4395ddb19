import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/contract";
import { waitsFromEvents } from "./run-waits";

const asked = (spanId: string): RunEvent => ({
  type: "ask.requested",
  runId: "r",
  blockId: spanId,
  spanId,
  question: "?",
  choices: [],
  allowText: false,
  fields: [],
  requestedAt: "2030-01-01T00:00:00.000Z",
});
const answered = (spanId: string): RunEvent => ({
  type: "ask.answered",
  runId: "r",
  blockId: spanId,
  spanId,
  choice: null,
  text: null,
  fields: {},
  answeredBy: "ann@example.com",
  answeredAt: "2030-01-01T00:00:01.000Z",
  timedOut: false,
});
const paused = (spanId: string, reason: "ask" | "approval" = "ask"): RunEvent => ({
  type: "run.paused",
  runId: "r",
  blockId: spanId,
  spanId,
  reason,
  pausedAt: "2030-01-01T00:00:00.500Z",
});
const approval = (toolCallId: string): RunEvent => ({
  type: "tool.approval.requested",
  runId: "r",
  blockId: "agent",
  spanId: "t",
  toolCallId,
  toolName: "send",
  arguments: {},
  requestedAt: "2030-01-01T00:00:00.000Z",
});
const decided = (toolCallId: string): RunEvent => ({
  type: "tool.approval.resolved",
  runId: "r",
  blockId: "agent",
  spanId: "t",
  toolCallId,
  toolName: "send",
  approved: true,
  resolvedAt: "2030-01-01T00:00:02.000Z",
});

describe("waitsFromEvents", () => {
  it("lets a run parked on two asks go on once one is answered, the other still listed", () => {
    const parked = [asked("a"), asked("b"), paused("a"), paused("b")];
    expect(waitsFromEvents(parked)).toMatchObject({ mayGoOn: false, asks: [{ spanId: "a" }, { spanId: "b" }] });
    const one = waitsFromEvents([...parked, answered("a")]);
    expect(one).toMatchObject({ mayGoOn: true, resumeReason: "answered", asks: [{ spanId: "b" }] });
    expect(one.answered.get("a")).toMatchObject({ answeredBy: "ann@example.com" });
    // Parked again with the other still waiting: nothing new until it is answered.
    expect(waitsFromEvents([...parked, answered("a"), paused("b")]).mayGoOn).toBe(false);
  });

  it("keeps a run parked while a tool call waits, and lets it go on once decided even with an ask still waiting", () => {
    const parked = [asked("a"), approval("c1"), paused("agent", "approval"), paused("a")];
    expect(waitsFromEvents([...parked, answered("a")]).mayGoOn).toBe(false);
    expect(waitsFromEvents([...parked, decided("c1")])).toMatchObject({
      mayGoOn: true,
      resumeReason: "approved",
      asks: [{ spanId: "a" }],
    });
  });
});
