import "server-only";
import { existsSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SandboxError } from "@/core";
import { SANDBOX_PRELUDE, wrapUserCode } from "./prelude";
import type { PreludeSettings, WorkerLimits } from "./protocol";
import { abortError, runWorker, startSandboxWorker, type SandboxServiceHandler } from "./run-worker";
import { pythonPoolFor } from "./python-workers";
import {
  PYODIDE_BASELINE_MB,
  pythonSandboxFootprintMb,
  QUICKJS_BASELINE_MB,
  sandboxFootprintMb,
  WORKER_RESOURCE_LIMITS,
} from "./sandbox-footprint";
import { processSandboxGate, sandboxSettings, type SandboxGate, type SandboxSlot } from "./sandbox-gate";
import { capSandboxLimits, type CappedLimits, type SandboxSettings } from "./sandbox-settings";

export type { SandboxServiceHandler };

export interface SandboxLimits {
  /** Time the code may spend running (waiting for services does not count). Default 5 s; at most TRELLIS_SANDBOX_MAX_TIMEOUT_MS. */
  cpuTimeMs: number;
  /** QuickJS heap limit. Default 64 MB; at most TRELLIS_SANDBOX_MAX_MEMORY_MB. */
  memoryBytes: number;
  /** JSON of `{ result, outputs }`. Default 1 MB. */
  maxOutputBytes: number;
  /** Console output kept, in characters. Default 64 K. */
  maxStdoutChars: number;
  /** Wall-clock limit for the whole run, services included, from the moment it leaves the queue. Default 5 minutes. */
  wallTimeMs: number;
  /** How long past the CPU budget the host waits before terminating the worker. Default 1 s. */
  terminateGraceMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  cpuTimeMs: 5_000,
  memoryBytes: 64 * 1024 * 1024,
  maxOutputBytes: 1024 * 1024,
  maxStdoutChars: 64 * 1024,
  wallTimeMs: 5 * 60_000,
  terminateGraceMs: 1_000,
};

export type SandboxLanguage = "javascript" | "python";

export interface SandboxRequest {
  /** User code; top-level `return` and `await` work (in Python a `main()` function may give the result instead). */
  code: string;
  /** `javascript` (QuickJS) unless given. */
  language?: SandboxLanguage;
  /** Available as `services.inputs`. Must be JSON data. */
  inputs?: unknown;
  /** Exposed as `services.<name>`; `inputs` and `outputs` are reserved. */
  services?: Readonly<Record<string, SandboxServiceHandler>>;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
  /** Where quickjs-worker.mjs (or, for Python, pyodide-worker.mjs) lives, when bundling moved it. */
  workerUrl?: URL;
  /** Who admits the run: the process's gate (TRELLIS_SANDBOX_CONCURRENCY, TRELLIS_SANDBOX_MEMORY_MB) unless given. */
  gate?: SandboxGate;
  /** Caps on `cpuTimeMs` and `memoryBytes`: the process's settings unless given. */
  maxima?: Pick<SandboxSettings, "maxMemoryMb" | "maxTimeoutMs">;
  /** Called when the run has to wait for room, with how many runs are before it. */
  onQueued?: (wait: { ahead: number }) => void;
  /** Called when the run got its room, with how long it waited. */
  onAdmitted?: (admission: { queuedMs: number }) => void;
}

export interface SandboxOutcome {
  result: unknown;
  outputs: Record<string, unknown>;
  stdout: string;
  stdoutTruncated: boolean;
  /** Time spent running the code (waiting for services not counted). */
  cpuTimeMs: number;
  /** Time spent waiting for room before the sandbox started; no limit of the sandbox counts it. */
  queuedMs: number;
  /** The limits it ran with, after the operator's maxima. */
  limits: CappedLimits;
}

const RESERVED_SERVICE_NAMES = new Set(["inputs", "outputs"]);
const STACK_BYTES = 512 * 1024;
// Arguments cross to the host as one JSON string in the worker's small V8 heap; bounded so that a
// call cannot take more than the reservation counts for (a 4 MB request body is plenty for a block).
const MAX_SERVICE_CALL_CHARS = 4 * 1024 * 1024;

// Cold, Pyodide loads for a second or more, much longer on a busy machine.
const START_TIMEOUT_MS = { javascript: 15_000, python: 60_000 } as const;

function resolveWorkerUrl(explicit: URL | undefined, language: SandboxLanguage): URL {
  if (explicit) return explicit;
  // The Python worker loads files beside it (python-hardening.mjs, python-prelude.py): it runs from
  // the source tree, never from a copy a bundler made of it alone.
  if (language === "python")
    return pathToFileURL(path.join(/*turbopackIgnore: true*/ process.cwd(), "sandbox", "pyodide-worker.mjs"));
  const fromEnvironment = process.env.TRELLIS_SANDBOX_WORKER;
  if (fromEnvironment) return pathToFileURL(/*turbopackIgnore: true*/ fromEnvironment);
  // The worker is loaded from disk as-is, never bundled: bundlers must not follow this URL.
  const besideThisFile = new URL(/*turbopackIgnore: true*/ "./quickjs-worker.mjs", import.meta.url);
  if (besideThisFile.protocol === "file:" && existsSync(/*turbopackIgnore: true*/ fileURLToPath(besideThisFile)))
    return besideThisFile;
  // A bundler moved this module; fall back to the source tree.
  return pathToFileURL(path.join(/*turbopackIgnore: true*/ process.cwd(), "sandbox", "quickjs-worker.mjs"));
}

/** Ends console output that was cut with a note saying so, so nobody takes it for all there was. */
export function markTruncated(stdout: string, maxStdoutChars: number): string {
  const separator = stdout === "" || stdout.endsWith("\n") ? "" : "\n";
  return `${stdout}${separator}… [output truncated after ${maxStdoutChars.toLocaleString("en-US")} characters]`;
}

/**
 * Runs user JavaScript in QuickJS, or Python in Pyodide, inside a worker thread of its own and
 * returns its JSON result. A Python run may get a warm worker, loaded ahead but never used
 * (python-warm-pool.ts).
 * The run first waits its turn at the gate, which counts its worker's whole footprint; its CPU
 * budget and wall-clock limit start only once it leaves the queue (the caller's signal, with the
 * block's and the run's own time limits, still bounds the wait). Throws SandboxError (timeout,
 * memory, output, or the code's own error), or CancelledError when `signal` aborts. The host stays
 * responsive: the script never runs on this thread.
 */
export async function runInSandbox(request: SandboxRequest): Promise<SandboxOutcome> {
  const language = request.language ?? "javascript";
  if (language !== "javascript" && language !== "python")
    throw new SandboxError("sandbox_error", `"${String(language)}" is not a sandbox language (javascript or python)`);
  const requested: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...request.limits };
  const services = request.services ?? {};
  for (const name of Object.keys(services)) {
    if (RESERVED_SERVICE_NAMES.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name))
      throw new SandboxError("sandbox_error", `"${name}" cannot be a service name`);
  }
  let inputsJson: string;
  try {
    inputsJson = JSON.stringify(request.inputs ?? {});
  } catch (error) {
    throw new SandboxError("sandbox_error", `The block's inputs are not JSON data: ${(error as Error).message}`);
  }
  const limits = capSandboxLimits(requested, request.maxima ?? sandboxSettings());
  const settings: PreludeSettings = {
    inputs: JSON.parse(inputsJson),
    serviceNames: Object.keys(services),
    maxStdoutChars: requested.maxStdoutChars,
    maxServiceCallChars: MAX_SERVICE_CALL_CHARS,
    maxOutputBytes: requested.maxOutputBytes,
  };
  const python = language === "python";
  const workerLimits: WorkerLimits = {
    cpuTimeMs: limits.cpuTimeMs,
    memoryBytes: limits.memoryBytes,
    baselineBytes: (python ? PYODIDE_BASELINE_MB : QUICKJS_BASELINE_MB) * 1024 * 1024,
    stackBytes: STACK_BYTES,
    maxOutputBytes: requested.maxOutputBytes,
  };

  const gate = request.gate ?? processSandboxGate();
  let slot: SandboxSlot;
  try {
    const footprintMb = python ? pythonSandboxFootprintMb(limits.memoryBytes) : sandboxFootprintMb(limits.memoryBytes);
    slot = await gate.acquire(footprintMb, {
      signal: request.signal,
      onWait: request.onQueued,
    });
  } catch (error) {
    throw request.signal?.aborted ? abortError(request.signal) : error;
  }
  request.onAdmitted?.({ queuedMs: slot.queuedMs });
  const workerUrl = resolveWorkerUrl(request.workerUrl, language);
  let worker: Worker;
  let onExit = () => slot.release();
  try {
    if (python) {
      const pool = pythonPoolFor(gate, workerUrl);
      worker = pool.take().worker;
      // Once this run's worker is gone, a warm one is loaded for the next run, if it fits.
      onExit = () => {
        slot.release();
        pool.refill();
      };
    } else worker = startSandboxWorker(workerUrl, WORKER_RESOURCE_LIMITS);
  } catch (error) {
    slot.release();
    throw new SandboxError("sandbox_error", `The sandbox could not start: ${(error as Error).message}`);
  }
  const outcome = await runWorker({
    worker,
    prelude: python ? "" : SANDBOX_PRELUDE,
    code: python ? request.code : wrapUserCode(request.code),
    settings,
    limits: workerLimits,
    services,
    wallTimeMs: requested.wallTimeMs,
    terminateGraceMs: requested.terminateGraceMs,
    startTimeoutMs: START_TIMEOUT_MS[language],
    ...(python ? { interrupt: new Int32Array(new SharedArrayBuffer(4)) } : {}),
    signal: request.signal,
    // The reservation holds until the thread is gone: its memory is only free then.
    onExit,
  });
  const stdout = outcome.stdoutTruncated ? markTruncated(outcome.stdout, requested.maxStdoutChars) : outcome.stdout;
  return { ...outcome, stdout, queuedMs: slot.queuedMs, limits };
}
