import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { CancelledError, SandboxError, TrellisError } from "@/executor";
import { SANDBOX_PRELUDE, wrapUserCode } from "./prelude";
import type { DoneMessage, HostToWorkerMessage, PreludeSettings, ServiceCallMessage, WorkerLimits, WorkerToHostMessage } from "./protocol";

/** A host function the sandbox may call as `services.<name>(...args)`. Its result must be JSON. */
export type SandboxServiceHandler = (args: unknown[], options: { signal: AbortSignal }) => Promise<unknown>;

export interface SandboxLimits {
  /** Time the code may spend running (waiting for services does not count). Default 5 s. */
  cpuTimeMs: number;
  /** QuickJS heap limit. Default 64 MB. */
  memoryBytes: number;
  /** JSON of `{ result, outputs }`. Default 1 MB. */
  maxOutputBytes: number;
  /** Console output kept, in characters. Default 64 K. */
  maxStdoutChars: number;
  /** Wall-clock limit for the whole run, services included. Default 5 minutes. */
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

export interface SandboxRequest {
  /** User JavaScript; top-level `return` and `await` work. */
  code: string;
  /** Available as `services.inputs`. Must be JSON data. */
  inputs?: unknown;
  /** Exposed as `services.<name>`; `inputs` and `outputs` are reserved. */
  services?: Readonly<Record<string, SandboxServiceHandler>>;
  limits?: Partial<SandboxLimits>;
  signal?: AbortSignal;
  /** Where quickjs-worker.mjs lives, when bundling moved it. */
  workerUrl?: URL;
}

export interface SandboxOutcome {
  result: unknown;
  outputs: Record<string, unknown>;
  stdout: string;
  stdoutTruncated: boolean;
  /** Time spent running inside QuickJS. */
  cpuTimeMs: number;
}

const RESERVED_SERVICE_NAMES = new Set(["inputs", "outputs"]);
const STACK_BYTES = 512 * 1024;
const WORKER_START_TIMEOUT_MS = 15_000;

function resolveWorkerUrl(explicit: URL | undefined): URL {
  if (explicit) return explicit;
  const fromEnvironment = process.env.TRELLIS_SANDBOX_WORKER;
  if (fromEnvironment) return pathToFileURL(/*turbopackIgnore: true*/ fromEnvironment);
  // The worker is loaded from disk as-is, never bundled: bundlers must not follow this URL.
  const besideThisFile = new URL(/*turbopackIgnore: true*/ "./quickjs-worker.mjs", import.meta.url);
  if (besideThisFile.protocol === "file:" && existsSync(/*turbopackIgnore: true*/ fileURLToPath(besideThisFile))) return besideThisFile;
  // A bundler moved this module; fall back to the source tree.
  return pathToFileURL(path.join(/*turbopackIgnore: true*/ process.cwd(), "sandbox", "quickjs-worker.mjs"));
}

/** Error messages from host services that are safe to show inside the sandbox. */
function serviceErrorFor(service: string, error: unknown): { name: string; code: string; message: string } {
  if (error instanceof TrellisError) return { name: error.name, code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { name: "ServiceError", code: "service_failed", message: `services.${service} failed: ${message}` };
}

/**
 * Runs user JavaScript in QuickJS inside a fresh worker thread and returns its JSON result.
 * Throws SandboxError (timeout, memory, output, or the code's own error), or CancelledError when
 * `signal` aborts. The host stays responsive: the script never runs on this thread.
 */
export function runInSandbox(request: SandboxRequest): Promise<SandboxOutcome> {
  const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, ...request.limits };
  const services = request.services ?? {};
  for (const name of Object.keys(services)) {
    if (RESERVED_SERVICE_NAMES.has(name) || !/^[A-Za-z_$][\w$]*$/.test(name)) {
      return Promise.reject(new SandboxError("sandbox_error", `"${name}" cannot be a service name`));
    }
  }
  let inputsJson: string;
  try {
    inputsJson = JSON.stringify(request.inputs ?? {});
  } catch (error) {
    return Promise.reject(new SandboxError("sandbox_error", `The block's inputs are not JSON data: ${(error as Error).message}`));
  }
  const settings: PreludeSettings = { inputs: JSON.parse(inputsJson), serviceNames: Object.keys(services), maxStdoutChars: limits.maxStdoutChars };
  const workerLimits: WorkerLimits = {
    cpuTimeMs: limits.cpuTimeMs,
    memoryBytes: limits.memoryBytes,
    stackBytes: STACK_BYTES,
    maxOutputBytes: limits.maxOutputBytes,
  };

  return new Promise<SandboxOutcome>((resolve, reject) => {
    // Reflect.construct keeps bundlers from treating this as a worker entry to bundle: the
    // worker file is loaded from disk as-is (see resolveWorkerUrl).
    const worker: Worker = Reflect.construct(Worker, [
      resolveWorkerUrl(request.workerUrl),
      {
        // Nothing of the host's environment reaches the worker, in case QuickJS were ever escaped.
        env: {},
        execArgv: [],
        stdout: true,
        stderr: true,
        resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      },
    ]);
    const serviceAbort = new AbortController();
    let settled = false;
    let pendingServiceCalls = 0;
    // CPU watchdog, host side: counts time the worker could be running user code, i.e. time
    // since "started" with no service call outstanding. The interrupt handler inside the worker
    // should always win; this is the last resort.
    let started = false;
    let activeMs = 0;
    let activeSince: number | null = null;
    const startedAt = Date.now();

    const cleanup = () => {
      settled = true;
      clearInterval(watchdog);
      request.signal?.removeEventListener("abort", onAbort);
      serviceAbort.abort();
      void worker.terminate();
    };
    const fail = (error: Error) => {
      if (settled) return;
      cleanup();
      reject(error);
    };
    const succeed = (outcome: SandboxOutcome) => {
      if (settled) return;
      cleanup();
      resolve(outcome);
    };

    const onAbort = () => {
      const reason: unknown = request.signal?.reason;
      fail(reason instanceof TrellisError ? reason : new CancelledError("The function block was cancelled"));
    };
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener("abort", onAbort, { once: true });

    const watchdog = setInterval(() => {
      const now = Date.now();
      if (!started) {
        if (now - startedAt > WORKER_START_TIMEOUT_MS) fail(new SandboxError("sandbox_error", "The sandbox did not start in time"));
        return;
      }
      const active = activeMs + (activeSince === null ? 0 : now - activeSince);
      if (active > limits.cpuTimeMs + limits.terminateGraceMs) {
        fail(new SandboxError("sandbox_timeout", `The code ran longer than its time limit of ${limits.cpuTimeMs} ms and was terminated`));
      } else if (now - startedAt > limits.wallTimeMs) {
        fail(new SandboxError("sandbox_timeout", `The code did not finish within ${limits.wallTimeMs} ms (services included) and was terminated`));
      }
    }, 50);

    const pauseActive = () => {
      if (activeSince !== null) activeMs += Date.now() - activeSince;
      activeSince = null;
    };

    const handleServiceCall = async (message: ServiceCallMessage) => {
      pendingServiceCalls++;
      pauseActive();
      let reply: HostToWorkerMessage;
      try {
        const handler = services[message.service];
        if (!handler) throw new SandboxError("sandbox_error", `There is no service named ${message.service}`);
        const args = JSON.parse(message.argsJson) as unknown[];
        const result = await handler(args, { signal: serviceAbort.signal });
        const resultJson = JSON.stringify(result === undefined ? null : result);
        reply = { type: "service-result", callId: message.callId, ok: true, resultJson };
      } catch (error) {
        reply = { type: "service-result", callId: message.callId, ok: false, error: serviceErrorFor(message.service, error) };
      }
      pendingServiceCalls--;
      if (settled) return;
      if (pendingServiceCalls === 0) activeSince = Date.now();
      worker.postMessage(reply);
    };

    const handleDone = (message: DoneMessage) => {
      if (!message.ok) return fail(new SandboxError(message.error.code, message.error.message));
      const output = JSON.parse(message.outputJson) as { result: unknown; outputs: Record<string, unknown> };
      succeed({
        result: output.result,
        outputs: output.outputs,
        stdout: message.stdout,
        stdoutTruncated: message.stdoutTruncated,
        cpuTimeMs: message.cpuTimeMs,
      });
    };

    worker.on("message", (message: WorkerToHostMessage) => {
      if (settled) return;
      if (message.type === "started") {
        started = true;
        activeSince = Date.now();
      } else if (message.type === "service-call") {
        void handleServiceCall(message);
      } else if (message.type === "done") {
        handleDone(message);
      }
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") fail(new SandboxError("sandbox_memory", "The sandbox ran out of memory and was terminated"));
      else fail(new SandboxError("sandbox_error", `The sandbox failed: ${error.message}`));
    });
    worker.on("exit", (exitCode) => fail(new SandboxError("sandbox_error", `The sandbox stopped unexpectedly (exit code ${exitCode})`)));

    const run: HostToWorkerMessage = {
      type: "run",
      prelude: SANDBOX_PRELUDE,
      code: wrapUserCode(request.code),
      settingsJson: JSON.stringify(settings),
      limits: workerLimits,
    };
    worker.postMessage(run);
  });
}
