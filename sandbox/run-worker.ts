import "server-only";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { CancelledError, SandboxError, TrellisError } from "@/core";
import type {
  DoneMessage,
  HostToWorkerMessage,
  PreludeSettings,
  ServiceCallMessage,
  WorkerLimits,
  WorkerToHostMessage,
} from "./protocol";

/** A host function the sandbox may call as `services.<name>(...args)`. Its result must be JSON. */
export type SandboxServiceHandler = (args: unknown[], options: { signal: AbortSignal }) => Promise<unknown>;

/** One run in one fresh worker, its limits already decided. */
export interface WorkerJob {
  /** The worker to run in: one started for this job, or a warm one that has run nothing yet. */
  worker: Worker;
  prelude: string;
  code: string;
  settings: PreludeSettings;
  limits: WorkerLimits;
  services: Readonly<Record<string, SandboxServiceHandler>>;
  /** Wall-clock limit from the moment the worker is created, services included. */
  wallTimeMs: number;
  /** How long past the CPU budget the host waits before terminating the worker. */
  terminateGraceMs: number;
  /** How long the worker may take to start the code (Pyodide loads for a while). */
  startTimeoutMs: number;
  /** Python: where to raise KeyboardInterrupt once the CPU budget is spent. */
  interrupt?: Int32Array;
  signal?: AbortSignal;
  /** Called once the worker thread has exited (its memory is back), whatever the outcome. */
  onExit(): void;
}

export interface WorkerOutcome {
  result: unknown;
  outputs: Record<string, unknown>;
  stdout: string;
  stdoutTruncated: boolean;
  cpuTimeMs: number;
}

/** Error messages from host services that are safe to show inside the sandbox. */
function serviceErrorFor(service: string, error: unknown): { name: string; code: string; message: string } {
  if (error instanceof TrellisError) return { name: error.name, code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { name: "ServiceError", code: "service_failed", message: `services.${service} failed: ${message}` };
}

/** What a run stopped by its signal fails with: the engine's own reason (a block's time limit) or a cancellation. */
export function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof TrellisError ? reason : new CancelledError("The function block was cancelled");
}

/** A sandbox worker from its file, with nothing of the host's environment or options. */
export function startSandboxWorker(
  workerUrl: URL,
  resourceLimits: NonNullable<WorkerOptions["resourceLimits"]>,
  workerData: Record<string, unknown> = {},
): Worker {
  // Reflect.construct keeps bundlers from treating this as a worker entry to bundle: the worker
  // file is loaded from disk as-is (see resolveWorkerUrl).
  return Reflect.construct(Worker, [
    workerUrl,
    {
      // Nothing of the host's environment reaches the worker, in case the sandbox were ever escaped.
      env: {},
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: { ...resourceLimits },
      workerData,
    },
  ]);
}

/**
 * Runs the job in a new worker thread and settles with its outcome. Throws SandboxError (timeout,
 * memory, output, or the code's own error), or CancelledError when `signal` aborts.
 */
export function runWorker(job: WorkerJob): Promise<WorkerOutcome> {
  return new Promise<WorkerOutcome>((resolve, reject) => {
    const worker = job.worker;
    if (worker.threadId < 0) {
      job.onExit();
      return reject(new SandboxError("sandbox_error", "The sandbox stopped before it could start"));
    }
    if (job.signal?.aborted) {
      void worker.terminate();
      job.onExit();
      return reject(abortError(job.signal));
    }
    const serviceAbort = new AbortController();
    let settled = false;
    let pendingServiceCalls = 0;
    // CPU watchdog, host side: counts time the worker could be running user code, i.e. time
    // since "started" with no service call outstanding. The interrupt handler inside the worker
    // should always win; this is the last resort.
    let started = false;
    let interrupted = false;
    let activeMs = 0;
    let activeSince: number | null = null;
    const startedAt = Date.now();

    const cleanup = () => {
      settled = true;
      clearInterval(watchdog);
      job.signal?.removeEventListener("abort", onAbort);
      serviceAbort.abort();
      void worker.terminate();
    };
    const fail = (error: Error) => {
      if (settled) return;
      cleanup();
      reject(error);
    };
    const succeed = (outcome: WorkerOutcome) => {
      if (settled) return;
      cleanup();
      resolve(outcome);
    };

    const onAbort = () => fail(abortError(job.signal));
    job.signal?.addEventListener("abort", onAbort, { once: true });

    const watchdog = setInterval(() => {
      const now = Date.now();
      if (!started) {
        if (now - startedAt > job.startTimeoutMs)
          fail(new SandboxError("sandbox_error", "The sandbox did not start in time"));
        return;
      }
      const active = activeMs + (activeSince === null ? 0 : now - activeSince);
      if (job.interrupt && !interrupted && active > job.limits.cpuTimeMs) {
        interrupted = true;
        // SIGINT: Python raises KeyboardInterrupt at its next check, and the worker reports a timeout.
        Atomics.store(job.interrupt, 0, 2);
      }
      if (active > job.limits.cpuTimeMs + job.terminateGraceMs) {
        fail(
          new SandboxError(
            "sandbox_timeout",
            `The code ran longer than its time limit of ${job.limits.cpuTimeMs} ms and was terminated`,
          ),
        );
      } else if (now - startedAt > job.wallTimeMs) {
        fail(
          new SandboxError(
            "sandbox_timeout",
            `The code did not finish within ${job.wallTimeMs} ms (services included) and was terminated`,
          ),
        );
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
        const handler = job.services[message.service];
        if (!handler) throw new SandboxError("sandbox_error", `There is no service named ${message.service}`);
        const args = JSON.parse(message.argsJson) as unknown[];
        const result = await handler(args, { signal: serviceAbort.signal });
        const resultJson = JSON.stringify(result === undefined ? null : result);
        reply = { type: "service-result", callId: message.callId, ok: true, resultJson };
      } catch (error) {
        reply = {
          type: "service-result",
          callId: message.callId,
          ok: false,
          error: serviceErrorFor(message.service, error),
        };
      }
      pendingServiceCalls--;
      if (settled) return;
      if (pendingServiceCalls === 0) activeSince = Date.now();
      worker.postMessage(reply);
    };

    const handleDone = (message: DoneMessage) => {
      if (!message.ok && interrupted && message.error.code !== "sandbox_memory") {
        // Whatever the interrupted code failed with (it may have caught KeyboardInterrupt and failed otherwise), it was stopped for its time.
        return fail(
          new SandboxError(
            "sandbox_timeout",
            `The code ran longer than its time limit of ${job.limits.cpuTimeMs} ms and was stopped`,
          ),
        );
      }
      if (!message.ok) return fail(new SandboxError(message.error.code, message.error.message));
      let output: { result: unknown; outputs: Record<string, unknown> };
      try {
        output = JSON.parse(message.outputJson) as typeof output;
      } catch {
        // Only a broken sandbox sends this; it must fail the run, never throw in this listener.
        return fail(new SandboxError("sandbox_error", "The sandbox returned a result that is not JSON"));
      }
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
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY")
        fail(new SandboxError("sandbox_memory", "The sandbox ran out of memory and was terminated"));
      else fail(new SandboxError("sandbox_error", `The sandbox failed: ${error.message}`));
    });
    worker.once("exit", (exitCode) => {
      fail(new SandboxError("sandbox_error", `The sandbox stopped unexpectedly (exit code ${exitCode})`));
      job.onExit();
    });

    const run: HostToWorkerMessage = {
      type: "run",
      prelude: job.prelude,
      code: job.code,
      settingsJson: JSON.stringify(job.settings),
      limits: job.limits,
      ...(job.interrupt ? { interruptBuffer: job.interrupt.buffer as SharedArrayBuffer } : {}),
    };
    worker.ref();
    worker.postMessage(run);
  });
}
