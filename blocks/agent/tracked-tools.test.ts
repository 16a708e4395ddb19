import { describe, expect, it } from "vitest";
import type { ToolSet } from "ai";
import { BlockExecutionError, type ChildSpan } from "@/executor";
import { toolOutcomesByName } from "./tool-outcomes";
import { trackTools } from "./tracked-tools";

const span = { end: () => undefined } as unknown as ChildSpan;

describe("tracked tools", () => {
  it("lists calls in the order they were issued, so the last call of a tool does not depend on which finished last", async () => {
    const release: Record<string, () => void> = {};
    const tools = {
      check: {
        inputSchema: undefined,
        execute: (input: { id: string; fail: boolean }) =>
          new Promise((resolve, reject) => {
            release[input.id] = () => (input.fail ? reject(new Error("failed")) : resolve({ ok: true }));
          }),
      },
    } as unknown as ToolSet;
    const tracker = trackTools(tools, () => span);
    const execute = tracker.tools.check!.execute! as (
      input: unknown,
      options: { toolCallId: string },
    ) => Promise<unknown>;
    // Two parallel calls of one tool in one step: the first fails, the second (the last issued) succeeds.
    const first = execute({ id: "a", fail: true }, { toolCallId: "a" }).catch(() => undefined);
    const second = execute({ id: "b", fail: false }, { toolCallId: "b" });
    expect(tracker.calls).toEqual([]);
    // They finish in reverse order: the last one made finishes first.
    release.b!();
    await second;
    expect(tracker.calls.map((call) => call.arguments)).toEqual([{ id: "b", fail: false }]);
    release.a!();
    await first;
    expect(tracker.calls.map((call) => (call.arguments as { id: string }).id)).toEqual(["a", "b"]);
    expect(toolOutcomesByName(["check"], tracker.calls)).toEqual({ check: "success" });
  });

  it("keeps what a failed call's error produced on its span, so a failed workflow tool's span links its child run", async () => {
    const ended: unknown[] = [];
    const recording = { end: (result: unknown) => ended.push(result) } as unknown as ChildSpan;
    const tools = {
      child: {
        inputSchema: undefined,
        execute: async () => {
          throw new BlockExecutionError("the child run failed", {
            code: "block_failed",
            partialOutput: { runId: "run-9", workflowId: "wf-2" },
          });
        },
      },
    } as unknown as ToolSet;
    const tracker = trackTools(tools, () => recording);
    const execute = tracker.tools.child!.execute! as (
      input: unknown,
      options: { toolCallId: string },
    ) => Promise<unknown>;
    await expect(execute({}, { toolCallId: "c1" })).rejects.toThrow("the child run failed");
    expect(ended).toEqual([
      expect.objectContaining({
        error: expect.objectContaining({ message: "the child run failed" }),
        output: { runId: "run-9", workflowId: "wf-2" },
      }),
    ]);
  });
});
