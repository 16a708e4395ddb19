import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/contract";
import { pausedMsOf } from "./paused-time";

const paused = (at: string): RunEvent => ({
  type: "run.paused",
  runId: "r",
  blockId: "b",
  spanId: null,
  reason: "approval",
  pausedAt: at,
});
const resumed = (at: string): RunEvent => ({ type: "run.resumed", runId: "r", reason: "approved", resumedAt: at });

describe("time paused for a person", () => {
  it("adds each pause up to its resume, and a pause still open up to now", () => {
    const events = [paused("2026-11-23T10:00:00Z"), resumed("2026-11-23T10:05:00Z"), paused("2026-11-23T11:00:00Z")];
    expect(pausedMsOf(events, Date.parse("2026-11-23T11:01:00Z"))).toBe(6 * 60_000);
  });

  it("is zero for a run that never paused", () => {
    expect(pausedMsOf([resumed("2026-11-23T10:05:00Z")])).toBe(0);
  });
});
