import { describe, expect, it, vi } from "vitest";
import { CancelledError } from "@/core";
import { runInSandbox } from "./run-in-sandbox";
import { SandboxGate } from "./sandbox-gate";

/** A service the test answers when it chooses, so a sandbox holds its slot until then. */
function heldService() {
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let calls = 0;
  return {
    hold: async () => {
      calls++;
      await released;
      return "let go";
    },
    letGo,
    calls: () => calls,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("runInSandbox behind the gate", () => {
  it("waits for a slot without spending its CPU budget, and reports how long it waited", async () => {
    const gate = new SandboxGate({ concurrency: 1, memoryMb: 4096 });
    const held = heldService();
    const first = runInSandbox({ code: "return await services.hold()", services: { hold: held.hold }, gate });
    await vi.waitFor(() => expect(held.calls()).toBe(1));
    const waits: number[] = [];
    const second = runInSandbox({
      code: "let n = 0; for (let i = 0; i < 1e5; i++) n += i; return n",
      limits: { cpuTimeMs: 300 },
      gate,
      onQueued: ({ ahead }) => waits.push(ahead),
    });
    await vi.waitFor(() => expect(gate.stats().waiting).toBe(1));
    // Queued for longer than its whole CPU budget: it must still get all of it once it runs.
    await sleep(600);
    held.letGo();
    expect((await first).result).toBe("let go");
    const outcome = await second;
    expect(outcome.result).toBe(4999950000);
    expect(waits).toEqual([0]);
    expect(outcome.queuedMs).toBeGreaterThan(300);
    expect((await first).queuedMs).toBe(0);
  });

  it("leaves the line when cancelled while waiting", async () => {
    const gate = new SandboxGate({ concurrency: 1, memoryMb: 4096 });
    const held = heldService();
    const first = runInSandbox({ code: "return await services.hold()", services: { hold: held.hold }, gate });
    await vi.waitFor(() => expect(held.calls()).toBe(1));
    const controller = new AbortController();
    const queued = runInSandbox({ code: "return 1", gate, signal: controller.signal });
    await vi.waitFor(() => expect(gate.stats().waiting).toBe(1));
    controller.abort();
    await expect(queued).rejects.toBeInstanceOf(CancelledError);
    expect(gate.stats().waiting).toBe(0);
    held.letGo();
    await first;
  });

  it("gives a request above the server's maxima the maxima, and says so", async () => {
    const gate = new SandboxGate({ concurrency: 1, memoryMb: 200 });
    const outcome = await runInSandbox({
      code: "return 1",
      limits: { memoryBytes: 512 * 1024 * 1024, cpuTimeMs: 60_000 },
      maxima: { maxMemoryMb: 64, maxTimeoutMs: 1_000 },
      gate,
    });
    expect(outcome.limits).toEqual({
      cpuTimeMs: 1_000,
      memoryBytes: 64 * 1024 * 1024,
      cpuTimeCapped: true,
      memoryCapped: true,
    });
    expect(gate.stats().peakReservedMb).toBeLessThanOrEqual(200);
  });

  it("gives its slot back once the worker has gone, whatever the outcome", async () => {
    const gate = new SandboxGate({ concurrency: 1, memoryMb: 4096 });
    await runInSandbox({ code: "return 1", gate });
    await runInSandbox({ code: "throw 'no'", gate }).catch(() => undefined);
    await runInSandbox({ code: "while (true) {}", limits: { cpuTimeMs: 100 }, gate }).catch(() => undefined);
    await vi.waitFor(() => expect(gate.stats()).toMatchObject({ running: 0, reservedMb: 0 }));
  });
});
