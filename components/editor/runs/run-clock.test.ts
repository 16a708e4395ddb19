import { describe, expect, it } from "vitest";
import { endedRunPollInterval, runClock, waitReason } from "./run-clock";

const queuedAt = "2026-11-23T17:00:00.000Z";
const at = (ms: number) => Date.parse(queuedAt) + ms;

describe("the run clock", () => {
  it("ticks while the run waits to start: from when it was queued, or from the click before the server has answered", () => {
    const waiting = { status: "queued" as const, ended: false };
    expect(runClock({ ...waiting, followedAt: at(500) }, undefined, at(12_500))).toEqual({
      phase: "waiting",
      ms: 12_000,
    });
    expect(
      runClock({ ...waiting, followedAt: at(500) }, { status: "queued", durationMs: null, queuedAt }, at(12_500)),
    ).toEqual({
      phase: "waiting",
      ms: 12_500,
    });
    expect(runClock(waiting, undefined, at(1))).toBeNull();
  });

  it("counts from the start once the run has started", () => {
    expect(
      runClock({ status: "running", ended: false, startedAt: new Date(at(1_000)).toISOString() }, undefined, at(4_000)),
    ).toEqual({
      phase: "running",
      ms: 3_000,
    });
  });

  it("shows a failed or cancelled run's stored duration, whose final event carries none", () => {
    const failed = { status: "failed" as const, ended: true, startedAt: queuedAt };
    expect(runClock(failed, { status: "failed", durationMs: 1_234, queuedAt }, at(99_000))).toEqual({
      phase: "ended",
      ms: 1_234,
    });
    // The stored row still says running (written in batches): nothing rather than a guess, and read it again.
    expect(runClock(failed, { status: "running", durationMs: null, queuedAt }, at(99_000))).toBeNull();
    expect(endedRunPollInterval(failed, { status: "running" })).toBe(1_000);
    expect(endedRunPollInterval(failed, { status: "failed" })).toBe(false);
    expect(runClock({ status: "succeeded", ended: true, durationMs: 50 }, undefined, at(0))).toEqual({
      phase: "ended",
      ms: 50,
    });
  });
});

describe("why a run waits", () => {
  const waiting = { status: "queued" as const, ended: false };
  it("says what it waits for: the server, a process (with its place in line), or its first events", () => {
    expect(waitReason(waiting, undefined, undefined)).toMatch(/^Waiting for the server to answer/);
    expect(waitReason(waiting, { status: "queued" }, 2)).toBe(
      "Waiting for a process to take the run; 1 run waits ahead of it.",
    );
    expect(waitReason(waiting, { status: "running" }, undefined)).toBe(
      "A process has taken the run; waiting for its first events.",
    );
    expect(
      waitReason({ ...waiting, status: "running", startedAt: queuedAt }, { status: "running" }, undefined),
    ).toBeNull();
  });
});
