import { describe, expect, it } from "vitest";
import { initialRunView } from "./run-view";
import { reduceRunEvents } from "./run-reducer";

describe("run reducer: a re-run's reused blocks", () => {
  it("marks a reused block as reused, says so in the console and counts none of its source figures in the totals", () => {
    const tokens = { prompt: 300, completion: 40, total: 340 };
    const view = reduceRunEvents(initialRunView("run-2", ["router", "agent"]), [
      {
        seq: 1,
        event: { type: "run.started", runId: "run-2", workflowId: "wf", startedAt: "2026-01-01T00:00:00.000Z" },
      },
      {
        seq: 2,
        event: {
          type: "block.completed",
          runId: "run-2",
          blockId: "router",
          spanId: "s1",
          output: { selectedRoute: "agent" },
          durationMs: 0,
          reused: { runId: "run-1", tokens, cost: { input: 0.1, output: 0.1, total: 0.2 } },
        },
      },
      {
        seq: 3,
        event: {
          type: "block.completed",
          runId: "run-2",
          blockId: "agent",
          spanId: "s2",
          output: { content: "hi" },
          durationMs: 5,
          tokens: { prompt: 5, completion: 2, total: 7 },
        },
      },
    ]);
    expect(view.blocks.router).toMatchObject({ status: "succeeded", reusedFrom: "run-1" });
    expect(view.blocks.router!.tokens).toBeUndefined();
    expect(view.blocks.agent!.reusedFrom).toBeUndefined();
    expect(view.tokens?.total).toBe(7);
    expect(view.log.find((entry) => entry.blockId === "router")!.text).toContain("reused its result from run run-1");
  });
});
