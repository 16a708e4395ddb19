import { describe, expect, it, vi } from "vitest";
import { BURST_STARTS_IN_FLIGHT, RunIntake } from "./run-intake";

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe("run intake", () => {
  it("holds queued work back while a run start is being accepted, and lets it go once the starts are answered", async () => {
    const intake = new RunIntake();
    const order: string[] = [];
    let answer!: () => void;
    const accepting = intake.accept(async () => {
      await new Promise<void>((resolve) => (answer = resolve));
      order.push("start answered");
    });
    const queued = intake.whenQuiet(60_000).then(() => order.push("queued run executes"));
    await settle();
    expect(order).toEqual([]);
    answer();
    await Promise.all([accepting, queued]);
    expect(order).toEqual(["start answered", "queued run executes"]);
    expect(intake.busy).toBe(false);
  });

  it("does not let a steady stream of starts hold queued work back for longer than its bound", async () => {
    const intake = new RunIntake();
    let stop = false;
    const stream = intake.accept(async () => {
      while (!stop) await settle();
    });
    let released = false;
    await intake.whenQuiet(30).then(() => (released = true));
    expect(released).toBe(true);
    expect(intake.busy).toBe(true);
    stop = true;
    await stream;
  });

  it("answers at once when nothing is being accepted, and counts a start that fails as ended", async () => {
    const intake = new RunIntake();
    await expect(intake.accept(async () => Promise.reject(new Error("workflow not found")))).rejects.toThrow(
      "workflow not found",
    );
    expect(intake.busy).toBe(false);
    await intake.whenQuiet(60_000);
  });

  describe("before executing a run", () => {
    /** `count` starts being accepted until `answer` is called. */
    function acceptStarts(intake: RunIntake, count: number) {
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const accepting = Promise.all(Array.from({ length: count }, () => intake.accept(() => answered)));
      return { answer, accepting };
    }

    it("under steady load goes after the I/O already due, not once no start is being accepted", async () => {
      const intake = new RunIntake();
      const steady = acceptStarts(intake, BURST_STARTS_IN_FLIGHT);
      expect(intake.inBurst).toBe(false);
      // With timers stopped, the bound a burst waits for cannot pass: this resolves only if it waits for nothing.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        await intake.beforeExecuting();
      } finally {
        vi.useRealTimers();
      }
      expect(intake.busy).toBe(true);
      steady.answer();
      await steady.accepting;
    });

    it("during a burst waits until its starts are answered", async () => {
      const intake = new RunIntake();
      const burst = acceptStarts(intake, BURST_STARTS_IN_FLIGHT + 1);
      expect(intake.inBurst).toBe(true);
      const order: string[] = [];
      const executing = intake.beforeExecuting().then(() => order.push("run executes"));
      await settle();
      expect(order).toEqual([]);
      burst.answer();
      await burst.accepting.then(() => order.push("burst answered"));
      await executing;
      expect(order).toEqual(["burst answered", "run executes"]);
    });
  });
});
