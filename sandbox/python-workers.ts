import { startPythonWorker } from "./python-snapshot";
import { PythonWarmPool } from "./python-warm-pool";
import { PYTHON_SANDBOX_OVERHEAD_MB } from "./sandbox-footprint";
import { sandboxSettings, type SandboxGate } from "./sandbox-gate";

/**
 * One warm pool per gate, kept on globalThis under a registered symbol like the process's gate:
 * a bundler may load this module once per route, and Next's dev reloads load it again.
 */
const PYTHON_POOLS = Symbol.for("trellis.pythonWarmPools");

export function pythonPoolFor(gate: SandboxGate, workerUrl: URL): PythonWarmPool {
  const holder = globalThis as typeof globalThis & { [PYTHON_POOLS]?: WeakMap<SandboxGate, PythonWarmPool> };
  const pools = (holder[PYTHON_POOLS] ??= new WeakMap());
  let pool = pools.get(gate);
  if (!pool) {
    pool = new PythonWarmPool(
      gate,
      () => startPythonWorker(workerUrl),
      PYTHON_SANDBOX_OVERHEAD_MB,
      sandboxSettings().pythonWarm,
    );
    pools.set(gate, pool);
  }
  return pool;
}
