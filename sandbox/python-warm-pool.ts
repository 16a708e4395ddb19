import type { Worker } from "node:worker_threads";
import type { SandboxGate, SandboxSlot } from "./sandbox-gate";

/**
 * One Python worker kept loaded for the next Python run: Pyodide takes far longer to load than a
 * run takes to start (docs/OPERATIONS.md has the figures). The pool is filled after a Python run
 * ends, so a server that never runs Python never loads it. The warm worker's memory is reserved at
 * the gate as an idle reservation: it is kept only while it fits in the sandboxes' total, and is
 * given back (the worker ended) as soon as a run has to wait for room.
 *
 * A warm worker has run nothing: each run still gets a worker of its own, never one another run used.
 */
export class PythonWarmPool {
  private warm: { worker: Worker; slot: SandboxSlot; ready: boolean } | null = null;

  constructor(
    private readonly gate: SandboxGate,
    private readonly startWorker: () => Worker,
    /** What an idle worker reserves: everything but a run's own memory limit. */
    private readonly idleFootprintMb: number,
    private readonly enabled: boolean,
  ) {}

  /** A worker for a run that holds its own reservation: the warm one when there is one (loaded or still loading), else a new one. */
  take(): { worker: Worker; warm: boolean } {
    const warm = this.warm;
    this.warm = null;
    if (warm && warm.worker.threadId >= 0) {
      warm.slot.release();
      return { worker: warm.worker, warm: true };
    }
    warm?.slot.release();
    return { worker: this.startWorker(), warm: false };
  }

  /** Starts a warm worker when there is none and its memory fits; called when a Python run ends. */
  refill(): void {
    if (!this.enabled || this.warm) return;
    let worker: Worker | null = null;
    const slot = this.gate.reserveIdle(this.idleFootprintMb, () => this.discard());
    if (!slot) return;
    try {
      worker = this.startWorker();
    } catch {
      slot.release();
      return;
    }
    // An idle worker must not keep the process alive; a run refs it again when it takes it.
    worker.unref();
    const entry = { worker, slot, ready: false };
    this.warm = entry;
    worker.on("message", (message: { type?: string }) => {
      if (message?.type === "ready") entry.ready = true;
    });
    const forget = () => {
      if (this.warm === entry) this.warm = null;
      slot.release();
    };
    worker.once("exit", forget);
    worker.once("error", () => {
      forget();
      void worker?.terminate();
    });
  }

  /** Ends the warm worker, if any, and gives its memory back. */
  discard(): void {
    const warm = this.warm;
    this.warm = null;
    if (!warm) return;
    warm.slot.release();
    void warm.worker.terminate();
  }

  get hasWarmWorker(): boolean {
    return this.warm !== null;
  }

  /** A warm worker has loaded Pyodide and waits for a run. */
  get warmWorkerReady(): boolean {
    return this.warm?.ready === true;
  }
}
