import { describe, expect, it } from "vitest";
import { RunIntake } from "./run-intake";

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
});
