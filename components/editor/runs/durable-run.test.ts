import { describe, expect, it } from "vitest";
import {
  QUEUE_POLL_MS,
  queuePollInterval,
  recoveryCount,
  shownQueuePosition,
  spanWorkers,
  waitsInQueue,
} from "./durable-run";

describe("a queued run's place in line", () => {
  it("polls every second while the run is queued and silent, and stops once an event comes or a status moves on", () => {
    const waiting = { status: "queued" as const, eventsArrived: false, ended: false };
    expect(queuePollInterval(waiting, undefined)).toBe(QUEUE_POLL_MS);
    expect(queuePollInterval(waiting, { status: "queued" })).toBe(1_000);
    // run.started (or any event) arrived: the stream tells the rest.
    expect(queuePollInterval({ ...waiting, eventsArrived: true }, { status: "queued" })).toBe(false);
    // A worker took it, or it was cancelled while it waited, before the stream said so.
    expect(queuePollInterval(waiting, { status: "running" })).toBe(false);
    expect(queuePollInterval(waiting, { status: "cancelled" })).toBe(false);
    expect(queuePollInterval({ ...waiting, status: "running" }, { status: "queued" })).toBe(false);
    expect(queuePollInterval({ ...waiting, status: "cancelled", ended: true }, undefined)).toBe(false);
    expect(queuePollInterval({ ...waiting, status: "idle" }, undefined)).toBe(false);
  });

  it("shows the position only while both the view and the API say queued", () => {
    expect(shownQueuePosition("queued", { status: "queued", queuePosition: 3 })).toBe(3);
    expect(shownQueuePosition("queued", { status: "running" })).toBeUndefined();
    expect(shownQueuePosition("running", { status: "queued", queuePosition: 3 })).toBeUndefined();
    expect(shownQueuePosition("queued", undefined)).toBeUndefined();
    expect(waitsInQueue("queued", { status: "queued" })).toBe(true);
    // A past run opened from the history is `queued` in the view until its events are replayed.
    expect(waitsInQueue("queued", { status: "succeeded" })).toBe(false);
    expect(waitsInQueue("queued", undefined)).toBe(false);
  });
});

describe("a run resumed by another process", () => {
  it("counts takeovers from the API or from the events seen, whichever knows more", () => {
    expect(recoveryCount(undefined, undefined)).toBe(0);
    expect(recoveryCount(undefined, 2)).toBe(2);
    expect(recoveryCount(1, 0)).toBe(1);
    expect(recoveryCount(3, 2)).toBe(3);
  });

  it("tells a run that moved between processes from one that stayed on one", () => {
    const spans = [{ worker: "host-a-1" }, { worker: "host-a-1" }, {}, { worker: "host-b-7" }, { worker: "host-a-1" }];
    expect(spanWorkers(spans)).toEqual(["host-a-1", "host-b-7"]);
    expect(spanWorkers([{ worker: "host-a-1" }, {}, { worker: "host-a-1" }])).toEqual(["host-a-1"]);
    expect(spanWorkers([{}, {}])).toEqual([]);
    expect(spanWorkers([])).toEqual([]);
  });
});
