import { describe, expect, it } from "vitest";
import { RunSlots } from "./run-slots";

describe("RunSlots", () => {
  it("lets a start run at once while there is room, within the process's and the workspace's limits", () => {
    const slots = new RunSlots(3, 2);
    expect([slots.tryTake("a"), slots.tryTake("a"), slots.tryTake("a")]).toEqual([true, true, false]);
    expect(slots.tryTake("b")).toBe(true);
    expect(slots.tryTake("c")).toBe(false);
    slots.give("a");
    expect(slots.tryTake("c")).toBe(true);
  });

  it("hands freed room to queued runs in order, skipping a workspace at its limit, and starts never jump them", async () => {
    const slots = new RunSlots(2, 1);
    expect(slots.tryTake("a")).toBe(true);
    expect(slots.tryTake("b")).toBe(true);
    const order: string[] = [];
    const first = slots.take("a").then(() => order.push("a again"));
    const second = slots.take("c").then(() => order.push("c"));
    // Room is freed in b: a is still at its limit, so c goes first.
    expect(slots.tryTake("d")).toBe(false);
    slots.give("b");
    await second;
    expect(order).toEqual(["c"]);
    slots.give("a");
    await first;
    expect(order).toEqual(["c", "a again"]);
    expect(slots.used).toBe(2);
  });
});
