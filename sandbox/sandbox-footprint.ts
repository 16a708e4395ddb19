/**
 * What one sandbox can take from the server beyond its QuickJS heap limit, so the gate can reserve
 * it before the worker starts. Measured on Node 20 (x64, RSS of the process): a worker thread with
 * QuickJS loaded adds 10 to 12 MB beyond its heaps (the first worker of a process about 30 MB, once,
 * for code shared by all later ones); a script allocating to a 64 MB limit took the process up by
 * 86 to 103 MB, one at a 256 MB limit by 268 to 283 MB.
 */

const MB = 1024 * 1024;

/**
 * V8 limits of the worker's own JavaScript heap. It holds only the QuickJS glue (about 5 MB used)
 * and the JSON text crossing to and from the host, which the prelude and the worker keep bounded
 * (result, console output, service arguments and errors), so it needs far less than Node's default.
 */
export const WORKER_RESOURCE_LIMITS = {
  maxOldGenerationSizeMb: 32,
  maxYoungGenerationSizeMb: 8,
  stackSizeMb: 4,
} as const;

/** The heap V8 allows a worker with those limits (its heap_size_limit: old generation plus 1.5 × young). */
export const WORKER_V8_HEAP_MB = 44;

/** WebAssembly memory QuickJS gets beyond its heap limit: its runtime, C stack and static data. */
export const QUICKJS_BASELINE_MB = 16;

/** The thread, its V8 isolate and the compiled QuickJS module, with room for the start-up peak. */
export const WORKER_NATIVE_MB = 16;

/** Reserved for every sandbox on top of its heap limit: everything its worker can hold but the QuickJS heap. */
export const SANDBOX_OVERHEAD_MB = QUICKJS_BASELINE_MB + WORKER_V8_HEAP_MB + WORKER_NATIVE_MB;

/** The smallest QuickJS heap a sandbox may be given. */
export const MIN_SANDBOX_MEMORY_MB = 8;

/** Megabytes a sandbox with this QuickJS heap limit reserves from the server's total. */
export function sandboxFootprintMb(memoryBytes: number): number {
  return Math.ceil(memoryBytes / MB) + SANDBOX_OVERHEAD_MB;
}

/**
 * Python (Pyodide 314, CPython 3.14). Measured on Node 20 (x64): Pyodide's WebAssembly memory is
 * 30.0 MB once loaded with the prelude; the worker's V8 heap holds Pyodide's JavaScript (18 MB used,
 * 29 MB committed); the first Python worker of a process took its RSS up by 138 MB (compiled
 * WebAssembly included), later idle ones by about 56 MB each.
 */
export const PYTHON_WORKER_RESOURCE_LIMITS = {
  maxOldGenerationSizeMb: 48,
  maxYoungGenerationSizeMb: 8,
  stackSizeMb: 4,
} as const;

/** The heap V8 allows a Python worker with those limits. */
export const PYTHON_WORKER_V8_HEAP_MB = 60;

/** Pyodide's WebAssembly memory once the interpreter and the prelude are loaded; the code's memory limit comes on top. */
export const PYODIDE_BASELINE_MB = 32;

/** The thread, its V8 isolate and the compiled Pyodide module (about 10 MB of WebAssembly), with room for the start-up peak. */
export const PYTHON_WORKER_NATIVE_MB = 64;

/** Reserved for every Python sandbox on top of its memory limit. */
export const PYTHON_SANDBOX_OVERHEAD_MB = PYODIDE_BASELINE_MB + PYTHON_WORKER_V8_HEAP_MB + PYTHON_WORKER_NATIVE_MB;

/** Megabytes a Python sandbox with this memory limit reserves from the server's total. */
export function pythonSandboxFootprintMb(memoryBytes: number): number {
  return Math.ceil(memoryBytes / MB) + PYTHON_SANDBOX_OVERHEAD_MB;
}
