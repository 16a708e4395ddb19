/**
 * Sandbox start-up benchmark (`npm run bench:sandbox`). Not a test: it prints figures.
 *
 * For each language, the time from asking for a run of a one-line script to its result:
 * - JavaScript: every run starts a fresh QuickJS worker;
 * - Python, first of the process: starts CPython and makes the memory snapshot (python-snapshot.ts);
 * - Python, cold: a fresh gate, so no warm worker exists and the run restores the snapshot itself;
 * - Python, warm: the run after another, once the warm worker it left behind has loaded.
 * Also the process's resident memory a loaded, idle Python worker adds, and Pyodide's WebAssembly
 * memory once loaded (what sandbox-footprint.ts reserves). Measure on a quiet machine.
 *
 * BENCH_SANDBOX_RUNS (default 5) runs of each kind.
 */
import { performance } from "node:perf_hooks";
import type { Worker } from "node:worker_threads";
import { runInSandbox, SandboxGate } from "@/sandbox";
import { startPythonWorker } from "@/sandbox/python-snapshot";
import { pythonPoolFor } from "@/sandbox/python-workers";

const RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 5);
const workerUrl = new URL("../sandbox/pyodide-worker.mjs", import.meta.url);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const format = (values: number[]) =>
  `median ${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)})`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(run: () => Promise<unknown>): Promise<number> {
  const startedAt = performance.now();
  await run();
  return performance.now() - startedAt;
}

async function waitUntil(check: () => boolean): Promise<void> {
  while (!check()) await sleep(20);
}

async function main() {
  const gate = () => new SandboxGate({ concurrency: 2, memoryMb: 4096 });
  const first = await timed(() => runInSandbox({ gate: gate(), language: "python", code: "return 1" }));
  const javascript: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    javascript.push(await timed(() => runInSandbox({ gate: gate(), code: "return 1" })));
    const fresh = gate();
    cold.push(await timed(() => runInSandbox({ gate: fresh, language: "python", code: "return 1" })));
    const pool = pythonPoolFor(fresh, workerUrl);
    await waitUntil(() => pool.warmWorkerReady);
    warm.push(await timed(() => runInSandbox({ gate: fresh, language: "python", code: "return 1" })));
    await waitUntil(() => pool.warmWorkerReady);
    pool.discard();
  }
  console.log(`JavaScript run (fresh QuickJS worker): ${format(javascript)}`);
  console.log(`Python run, first of the process:     ${first.toFixed(0)} ms (starts CPython, makes the snapshot)`);
  console.log(`Python run, cold (restores snapshot):  ${format(cold)}`);
  console.log(`Python run, warm worker ready:         ${format(warm)}`);

  // Memory of loaded, idle Python workers: RSS before and after loading three of them.
  global.gc?.();
  await sleep(200);
  const before = process.memoryUsage().rss;
  const workers: Worker[] = [];
  const loaded: Array<{ loadMs: number; memoryBytes: number }> = [];
  for (let index = 0; index < 3; index++) {
    const worker = startPythonWorker(workerUrl);
    workers.push(worker);
    loaded.push(
      await new Promise((resolve) =>
        worker.on("message", (message: { type: string; loadMs: number; memoryBytes: number }) => {
          if (message.type === "ready") resolve(message);
        }),
      ),
    );
  }
  await sleep(500);
  const after = process.memoryUsage().rss;
  console.log(
    `Idle loaded Python worker: ${((after - before) / 3 / 1024 / 1024).toFixed(1)} MB of RSS each; ` +
      `Pyodide's WebAssembly memory once loaded ${(loaded[0]!.memoryBytes / 1024 / 1024).toFixed(1)} MB; ` +
      `load times ${loaded.map((entry) => entry.loadMs).join(", ")} ms`,
  );
  await Promise.all(workers.map((worker) => worker.terminate()));
}

// The gates' warm workers are not waited for.
void main().then(() => process.exit(0));
