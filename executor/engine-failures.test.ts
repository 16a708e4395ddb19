import { describe, expect, it } from "vitest";
import { block, edge, workflow } from "./__fixtures__/fake-blocks";
import { runHarness } from "./__fixtures__/run-harness";
import { RunStoppedError } from "@/core";

describe("engine: failures, error edges, retries, timeouts and cancellation", () => {
  it("takes the error edge of a failed block and skips its success path", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("risky", "task", { fail: "quota exceeded" }),
        block("ok", "task"),
        block("recover", "task", { value: "<risky.error.message>" }),
      ],
      [edge("start", "risky"), edge("risky", "ok"), edge("risky", "recover", "error")],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "quota exceeded" } });
    expect(run.failed).toMatchObject([
      { blockId: "risky", handled: true, error: { code: "task_failed", message: "quota exceeded" } },
    ]);
    expect(run.skipped).toEqual(["ok"]);
    expect(run.log.calls.find((call) => call.blockId === "recover")?.inputs).toEqual({
      risky: { error: { code: "task_failed", message: "quota exceeded" } },
    });
  });

  it("skips the error path when the block succeeds", async () => {
    const document = workflow(
      [block("start", "start"), block("risky", "task"), block("ok", "task"), block("recover", "task")],
      [edge("start", "risky"), edge("risky", "ok"), edge("risky", "recover", "error")],
    );
    const run = await runHarness(document);
    expect(run.skipped).toEqual(["recover"]);
    expect(run.log.calls.map((call) => call.blockId)).toEqual(["risky", "ok"]);
  });

  it("fails the run on an unhandled failure only after the blocks already running finish, starting nothing new", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("broken", "task", { delayMs: 5, fail: "boom" }),
        block("slow", "task", { delayMs: 60 }),
        block("afterSlow", "task"),
        block("afterBroken", "task"),
      ],
      [edge("start", "broken"), edge("start", "slow"), edge("slow", "afterSlow"), edge("broken", "afterBroken")],
    );
    const run = await runHarness(document);
    expect(run.result.status).toBe("failed");
    expect(run.result.error).toEqual({ code: "task_failed", message: "Block 'broken' failed: boom" });
    expect(run.failed).toMatchObject([{ blockId: "broken", handled: false }]);
    expect(run.completed("slow")).toHaveLength(1);
    expect(run.started("afterSlow")).toHaveLength(0);
    expect(run.started("afterBroken")).toHaveLength(0);
    expect(run.trail.at(-2)).toBe("completed:slow");
    expect(run.trail.at(-1)).toBe("run.failed");
  });

  it("lets the other running branches finish when one of several fails", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { delayMs: 30 }),
        block("b", "task", { delayMs: 10, fail: "b broke" }),
        block("c", "task", { delayMs: 40 }),
      ],
      [edge("start", "a"), edge("start", "b"), edge("start", "c")],
    );
    const run = await runHarness(document);
    expect(run.result.error?.message).toBe("Block 'b' failed: b broke");
    expect(run.completed("a")).toHaveLength(1);
    expect(run.completed("c")).toHaveLength(1);
    expect(run.log.aborted).toEqual([]);
  });

  it("retries a flaky block and succeeds on the second try", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("flaky", "task", { failTimes: 1, value: "ok" }, { retry: { attempts: 3, backoffMs: 5 } }),
      ],
      [edge("start", "flaky")],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({ status: "succeeded", output: { value: "ok" } });
    expect(run.log.attempts.get("flaky@")).toBe(2);
    expect(run.started("flaky")).toHaveLength(1);
    expect(run.spans.filter((span) => span.blockId === "flaky").at(-1)).toMatchObject({
      status: "succeeded",
      attempts: 2,
    });
  });

  it("fails after the last attempt and does not retry without a policy", async () => {
    const exhausted = workflow(
      [block("start", "start"), block("flaky", "task", { failTimes: 5 }, { retry: { attempts: 3, backoffMs: 0 } })],
      [edge("start", "flaky")],
    );
    const run = await runHarness(exhausted);
    expect(run.result.error?.message).toBe("Block 'flaky' failed: flaky failure 3");
    expect(run.spans.filter((span) => span.blockId === "flaky").at(-1)).toMatchObject({
      status: "failed",
      attempts: 3,
    });

    const noPolicy = workflow(
      [block("start", "start"), block("flaky", "task", { failTimes: 1 })],
      [edge("start", "flaky")],
    );
    const single = await runHarness(noPolicy);
    expect(single.result.status).toBe("failed");
    expect(single.log.attempts.get("flaky@")).toBe(1);
  });

  it("times out a block that ignores its signal and reports a timeout error", async () => {
    const document = workflow(
      [block("start", "start"), block("stuck", "task", { delayMs: 200, ignoreSignal: true }, { timeoutMs: 20 })],
      [edge("start", "stuck")],
    );
    const run = await runHarness(document);
    expect(run.failed).toMatchObject([
      { blockId: "stuck", error: { code: "timeout", message: "Block 'stuck' took longer than its limit of 20 ms" } },
    ]);
    expect(run.result.status).toBe("failed");
  });

  it("aborts the handler's signal when its block times out", async () => {
    const document = workflow(
      [block("start", "start"), block("slow", "task", { delayMs: 500 }, { timeoutMs: 15 })],
      [edge("start", "slow")],
    );
    const run = await runHarness(document);
    expect(run.log.aborted).toEqual(["slow"]);
    expect(run.result.error?.code).toBe("timeout");
  });

  it("fails the run when it passes its run timeout, aborting running handlers", async () => {
    const document = workflow(
      [block("start", "start"), block("slow", "task", { delayMs: 500 }), block("next", "task")],
      [edge("start", "slow"), edge("slow", "next")],
    );
    const run = await runHarness(document, { runTimeoutMs: 25 });
    expect(run.result).toMatchObject({
      status: "failed",
      error: { code: "timeout", message: "The run took longer than its limit of 25 ms" },
    });
    expect(run.log.aborted).toEqual(["slow"]);
    expect(run.started("next")).toHaveLength(0);
    expect(run.trail.at(-1)).toBe("run.failed");
  });

  it("cancels before start: no block runs", async () => {
    const controller = new AbortController();
    controller.abort();
    const document = workflow([block("start", "start"), block("a", "task")], [edge("start", "a")]);
    const run = await runHarness(document, { signal: controller.signal });
    expect(run.trail).toEqual(["run.started", "run.cancelled"]);
    expect(run.result.status).toBe("cancelled");
    expect(run.log.calls).toEqual([]);
  });

  it("cancels mid-run: every running handler's signal is aborted and nothing new starts", async () => {
    const controller = new AbortController();
    const document = workflow(
      [
        block("start", "start"),
        block("a", "task", { delayMs: 500 }),
        block("b", "task", { delayMs: 500 }),
        block("after", "task"),
      ],
      [edge("start", "a"), edge("start", "b"), edge("a", "after")],
    );
    const pending = runHarness(document, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const run = await pending;
    expect(run.result.status).toBe("cancelled");
    expect(new Set(run.log.aborted)).toEqual(new Set(["a", "b"]));
    expect(run.started("after")).toHaveLength(0);
    expect(run.trail.at(-1)).toBe("run.cancelled");
    expect(run.spans.filter((span) => span.blockId === "a").at(-1)?.status).toBe("cancelled");
  });

  it("fails the run with the stopper's error when aborted with a RunStoppedError (not cancelled)", async () => {
    const controller = new AbortController();
    const document = workflow(
      [block("start", "start"), block("slow", "task", { delayMs: 500 }), block("after", "task")],
      [edge("start", "slow"), edge("slow", "after")],
    );
    const pending = runHarness(document, { signal: controller.signal });
    setTimeout(
      () => controller.abort(new RunStoppedError("storage_behind", "The database has fallen behind this run")),
      20,
    );
    const run = await pending;
    expect(run.result).toMatchObject({
      status: "failed",
      error: { code: "storage_behind", message: "The database has fallen behind this run" },
    });
    expect(run.log.aborted).toEqual(["slow"]);
    expect(run.started("after")).toHaveLength(0);
    expect(run.trail.at(-1)).toBe("run.failed");
  });

  it("ends the run at a response block and stops the branches still running", async () => {
    const document = workflow(
      [
        block("start", "start"),
        block("fast", "task", { value: "done" }),
        block("reply", "response", { data: { answer: "<fast.value>" } }),
        block("slow", "task", { delayMs: 500 }),
        block("afterSlow", "task"),
      ],
      [edge("start", "fast"), edge("fast", "reply"), edge("start", "slow"), edge("slow", "afterSlow")],
    );
    const run = await runHarness(document);
    expect(run.result).toMatchObject({ status: "succeeded", output: { answer: "done" } });
    expect(run.log.aborted).toEqual(["slow"]);
    expect(run.events.find((event) => event.type === "block.skipped" && event.blockId === "slow")).toMatchObject({
      reason: "the run ended at response block 'reply'",
    });
    expect(run.started("afterSlow")).toHaveLength(0);
    expect(run.trail.at(-1)).toBe("run.completed");
  });
});
