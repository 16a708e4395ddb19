/**
 * Messages between the host thread and a sandbox worker (sandbox/quickjs-worker.mjs for
 * JavaScript, sandbox/pyodide-worker.mjs for Python).
 * Every value crosses as JSON text, so nothing but data can leave or enter the sandbox.
 * Service calls follow the flow-services proposal: `{ callId, service, args }` out,
 * `{ callId, ok, result | error }` back.
 */

export interface WorkerLimits {
  /** Time the script may spend running (waiting for host services is free). */
  cpuTimeMs: number;
  /** The code's heap limit (QuickJS's heap; for Python, WebAssembly memory beyond Pyodide's baseline). */
  memoryBytes: number;
  /** WebAssembly memory allowed beyond the heap limit (the runtime, C stack and static data; Pyodide's loaded interpreter). */
  baselineBytes: number;
  stackBytes: number;
  /** Size of the JSON of `{ result, outputs }`. */
  maxOutputBytes: number;
}

/** Host to worker: the one job a worker runs. */
export interface RunMessage {
  type: "run";
  /** The in-sandbox prelude (sandbox/prelude.ts): console, services, JSON checks. Empty for Python, whose worker holds its own. */
  prelude: string;
  /** The user's code: JavaScript wrapped into an async function expression, Python as written. */
  code: string;
  /** JSON of PreludeSettings. */
  settingsJson: string;
  limits: WorkerLimits;
  /** Python: the host stores 2 (SIGINT) here once the CPU budget is spent, and Python raises KeyboardInterrupt. */
  interruptBuffer?: SharedArrayBuffer;
}

/** Host to worker: the answer to a service call. */
export type ServiceResultMessage =
  | { type: "service-result"; callId: number; ok: true; resultJson: string }
  | { type: "service-result"; callId: number; ok: false; error: { name: string; code: string; message: string } };

export type HostToWorkerMessage = RunMessage | ServiceResultMessage;

/** Worker to host: the user's code is about to run (the CPU watchdog starts here). */
export interface StartedMessage {
  type: "started";
}

/** Python worker to host: Pyodide is loaded and the worker waits for its job. */
export interface ReadyMessage {
  type: "ready";
  /** How long loading took. */
  loadMs: number;
  /** Pyodide's WebAssembly memory once loaded. */
  memoryBytes: number;
}

export interface ServiceCallMessage {
  type: "service-call";
  callId: number;
  service: string;
  argsJson: string;
}

export interface SandboxFailure {
  code: "sandbox_timeout" | "sandbox_memory" | "sandbox_output" | "sandbox_error";
  message: string;
}

export type DoneMessage =
  | { type: "done"; ok: true; outputJson: string; stdout: string; stdoutTruncated: boolean; cpuTimeMs: number }
  | { type: "done"; ok: false; error: SandboxFailure; stdout: string; stdoutTruncated: boolean; cpuTimeMs: number };

export type WorkerToHostMessage = ReadyMessage | StartedMessage | ServiceCallMessage | DoneMessage;

/** What the prelude receives (as JSON) before the user's code runs. */
export interface PreludeSettings {
  inputs: unknown;
  serviceNames: string[];
  /** Console output beyond this many characters is dropped (and marked truncated). */
  maxStdoutChars: number;
  /** A service call whose arguments are longer JSON than this is refused inside the sandbox. */
  maxServiceCallChars: number;
  /** Size of the JSON of `{ result, outputs }` (the Python prelude checks it before the result leaves Python). */
  maxOutputBytes: number;
}
