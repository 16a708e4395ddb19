import { describe, expect, it } from "vitest";
import { RunWaiters } from "./run-waiters";

describe("run waiters", () => {
  it("wakes every waiter of the run at once, and only that run's", async () => {
    const waiters = new RunWaiters();
    const woken: string[] = [];
    const a = waiters.next("a", 10_000).promise.then(() => woken.push("a"));
    void waiters.next("b", 10_000).promise.then(() => woken.push("b"));
    waiters.wake("a");
    await a;
    expect(woken).toEqual(["a"]);
    expect(waiters.endedLately("a")).toBe(true);
    expect(waiters.endedLately("b")).toBe(false);
  });

  it("gives up at the timeout, and a notice wakes without counting as an end", async () => {
    const waiters = new RunWaiters();
    const started = Date.now();
    await waiters.next("a", 30).promise;
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const waiting = waiters.next("a", 10_000).promise;
    waiters.notify("a");
    await waiting;
    expect(waiters.endedLately("a")).toBe(false);
  });

  it("forgets a cancelled waiter", async () => {
    const waiters = new RunWaiters();
    let woken = false;
    const { promise, cancel } = waiters.next("a", 10_000);
    void promise.then(() => (woken = true));
    cancel();
    waiters.wake("a");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(woken).toBe(false);
  });
});
