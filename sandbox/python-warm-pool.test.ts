import { describe, expect, it, vi } from "vitest";
import { runInSandbox } from "./run-in-sandbox";
import { pythonPoolFor } from "./python-workers";
import { PythonWarmPool } from "./python-warm-pool";
import { startSandboxWorker } from "./run-worker";
import {
  PYTHON_SANDBOX_OVERHEAD_MB,
  PYTHON_WORKER_RESOURCE_LIMITS,
  pythonSandboxFootprintMb,
} from "./sandbox-footprint";
import { SandboxGate } from "./sandbox-gate";

const workerUrl = new URL("./pyodide-worker.mjs", import.meta.url);

describe("the warm Python worker", () => {
  it("is loaded after a Python run ends, within the gate's memory, and serves the next run", async () => {
    const gate = new SandboxGate({ concurrency: 2, memoryMb: 4096 });
    const pool = pythonPoolFor(gate, workerUrl);
    expect(pool.hasWarmWorker).toBe(false);
    expect((await runInSandbox({ gate, language: "python", code: "return 1" })).result).toBe(1);
    await vi.waitFor(() => expect(gate.stats()).toMatchObject({ running: 0, reservedMb: PYTHON_SANDBOX_OVERHEAD_MB }));
    expect(pool.hasWarmWorker).toBe(true);

    const next = runInSandbox({ gate, language: "python", code: "return 2" });
    // Taken at once: the run's own reservation covers the worker, the idle one is given back.
    await vi.waitFor(() => expect(gate.stats().reservedMb).toBe(pythonSandboxFootprintMb(64 * 1024 * 1024)));
    expect((await next).result).toBe(2);
    // And once that run's worker is gone, the next warm one.
    await vi.waitFor(() => expect(pool.hasWarmWorker).toBe(true));
    pool.discard();
    await vi.waitFor(() => expect(gate.stats().reservedMb).toBe(0));
  }, 120_000);

  it("gives its memory back when a run would otherwise have to wait for room", async () => {
    // Room for one Python run, or for the warm worker beside a small one, not beside a 128 MB JavaScript run.
    const gate = new SandboxGate({ concurrency: 2, memoryMb: pythonSandboxFootprintMb(64 * 1024 * 1024) });
    const pool = pythonPoolFor(gate, workerUrl);
    await runInSandbox({ gate, language: "python", code: "return 1" });
    await vi.waitFor(() => expect(pool.hasWarmWorker).toBe(true));
    const outcome = await runInSandbox({
      gate,
      code: "return 'javascript'",
      limits: { memoryBytes: 128 * 1024 * 1024 },
    });
    expect(outcome).toMatchObject({ result: "javascript", queuedMs: 0 });
    expect(pool.hasWarmWorker).toBe(false);
    await vi.waitFor(() => expect(gate.stats()).toMatchObject({ running: 0, waiting: 0, reservedMb: 0 }));
  }, 120_000);

  it("is not kept when the operator turns it off", async () => {
    const gate = new SandboxGate({ concurrency: 2, memoryMb: 4096 });
    const pool = new PythonWarmPool(
      gate,
      () => startSandboxWorker(workerUrl, PYTHON_WORKER_RESOURCE_LIMITS),
      PYTHON_SANDBOX_OVERHEAD_MB,
      false,
    );
    pool.refill();
    expect(pool.hasWarmWorker).toBe(false);
    expect(gate.stats().reservedMb).toBe(0);
  });
});
