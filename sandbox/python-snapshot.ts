import type { Worker } from "node:worker_threads";
import { startSandboxWorker } from "./run-worker";
import { PYTHON_WORKER_RESOURCE_LIMITS } from "./sandbox-footprint";

/**
 * Pyodide's memory right after the first Python worker of this process loaded it and ran the
 * prelude, before any user code: later workers restore it instead of starting CPython again
 * (about a second instead of several; docs/OPERATIONS.md). Kept on globalThis under a registered
 * symbol, like the process's gate. Each worker gets a copy of its own, never a shared buffer, so
 * nothing one run does can reach another's start.
 */
const PYTHON_SNAPSHOT = Symbol.for("trellis.pythonSnapshot");

type Holder = typeof globalThis & { [PYTHON_SNAPSHOT]?: ArrayBuffer };

/** The snapshot's size in bytes, or 0 before the first Python worker made it. */
export function pythonSnapshotBytes(): number {
  return (globalThis as Holder)[PYTHON_SNAPSHOT]?.byteLength ?? 0;
}

/** A Python worker: restoring the snapshot when there is one, else making it. */
export function startPythonWorker(workerUrl: URL): Worker {
  const holder = globalThis as Holder;
  const snapshot = holder[PYTHON_SNAPSHOT];
  const worker = startSandboxWorker(
    workerUrl,
    PYTHON_WORKER_RESOURCE_LIMITS,
    snapshot ? { snapshot: snapshot.slice(0) } : {},
  );
  if (!snapshot) {
    // Only the worker's first message, sent before it is ready for a job: what it sends later is
    // not trusted to be the interpreter's clean state.
    worker.once("message", (message: { type?: string; snapshot?: unknown }) => {
      if (message?.type === "snapshot" && message.snapshot instanceof ArrayBuffer && !holder[PYTHON_SNAPSHOT])
        holder[PYTHON_SNAPSHOT] = message.snapshot;
    });
  }
  return worker;
}
