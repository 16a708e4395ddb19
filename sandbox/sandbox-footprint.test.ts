import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import {
  SANDBOX_OVERHEAD_MB,
  sandboxFootprintMb,
  WORKER_RESOURCE_LIMITS,
  WORKER_V8_HEAP_MB,
} from "./sandbox-footprint";

function heapLimitOfWorker(): Promise<number> {
  const worker = new Worker(new URL("./__fixtures__/heap-limit-worker.mjs", import.meta.url), {
    resourceLimits: { ...WORKER_RESOURCE_LIMITS },
  });
  return new Promise<number>((resolve, reject) => {
    worker.once("message", (bytes: number) => resolve(bytes));
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}

describe("sandbox footprint", () => {
  it("reserves at least the JavaScript heap V8 allows a sandbox worker", async () => {
    expect((await heapLimitOfWorker()) / (1024 * 1024)).toBeLessThanOrEqual(WORKER_V8_HEAP_MB);
  });

  it("counts the heap limit plus the worker's overhead, in whole megabytes", () => {
    expect(sandboxFootprintMb(64 * 1024 * 1024)).toBe(64 + SANDBOX_OVERHEAD_MB);
    expect(sandboxFootprintMb(64 * 1024 * 1024 + 1)).toBe(65 + SANDBOX_OVERHEAD_MB);
  });
});
