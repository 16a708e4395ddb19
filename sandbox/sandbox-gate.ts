import { SandboxError } from "@/core";
import { sandboxSettingsFrom, type SandboxSettings } from "./sandbox-settings";

/** A sandbox's place among those running: hold it while the worker lives, release it once it has exited. */
export interface SandboxSlot {
  /** How long the request waited for its place. */
  readonly queuedMs: number;
  /** Gives the place back; later calls do nothing. */
  release(): void;
}

export interface SandboxGateStats {
  running: number;
  waiting: number;
  reservedMb: number;
  /** The most sandboxes that ever ran at once through this gate. */
  peakRunning: number;
  /** The most memory ever reserved at once through this gate. */
  peakReservedMb: number;
}

export interface AcquireOptions {
  /** Aborting it while waiting takes the request out of the line; the promise rejects with its reason. */
  signal?: AbortSignal;
  /** Called once when the request has to wait, with how many requests are before it. */
  onWait?: (wait: { ahead: number }) => void;
}

interface Waiter {
  footprintMb: number;
  enqueuedAt: number;
  admit(slot: SandboxSlot): void;
  forget(): void;
}

/**
 * Admits sandboxes up to a number at once and a total of reserved memory, in arrival order. A
 * request that does not fit waits, and so does everyone after it, even a smaller one that would
 * fit: letting small ones pass could starve a large one for ever.
 */
export class SandboxGate {
  private readonly line: Waiter[] = [];
  /** Memory held by warm workers that run nothing yet, with how to give it back. */
  private readonly idle = new Set<{ footprintMb: number; reclaim: () => void }>();
  private running = 0;
  private reservedMb = 0;
  private peakRunning = 0;
  private peakReservedMb = 0;
  private readonly admissionListeners = new Set<(queuedMs: number) => void>();

  constructor(
    readonly limits: Pick<SandboxSettings, "concurrency" | "memoryMb">,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Waits for room for a sandbox reserving `footprintMb`; one that could never fit is refused at once. */
  acquire(footprintMb: number, options: AcquireOptions = {}): Promise<SandboxSlot> {
    const { signal, onWait } = options;
    if (footprintMb > this.limits.memoryMb) {
      return Promise.reject(
        new SandboxError(
          "sandbox_memory",
          `A sandbox needing ${footprintMb} MB can never fit in the ${this.limits.memoryMb} MB all sandboxes may use together (TRELLIS_SANDBOX_MEMORY_MB)`,
        ),
      );
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.line.length === 0 && this.fits(footprintMb)) return Promise.resolve(this.admit(footprintMb, 0));
    // A run comes before a warm worker kept for a later one: the idle ones give their memory back.
    if (this.idle.size > 0) {
      this.reclaimIdle();
      if (this.line.length === 0 && this.fits(footprintMb)) return Promise.resolve(this.admit(footprintMb, 0));
    }
    return new Promise<SandboxSlot>((resolve, reject) => {
      const onAbort = () => {
        const index = this.line.indexOf(waiter);
        if (index !== -1) this.line.splice(index, 1);
        reject(signal?.reason);
        // The one leaving may have held back smaller requests behind it.
        this.admitWaiting();
      };
      const waiter: Waiter = {
        footprintMb,
        enqueuedAt: this.now(),
        admit: resolve,
        forget: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.line.push(waiter);
      onWait?.({ ahead: this.line.length - 1 });
    });
  }

  /** Tells `listener` how long each admitted sandbox waited for its place (metrics); answers how to stop telling it. */
  onAdmitted(listener: (queuedMs: number) => void): () => void {
    this.admissionListeners.add(listener);
    return () => this.admissionListeners.delete(listener);
  }

  /**
   * Reserves memory for a warm worker that runs nothing yet, only when nobody waits and it fits;
   * it counts against the memory total but not against the number running. `reclaim` is called
   * when a run has to wait for room: it must end the worker and release the slot.
   */
  reserveIdle(footprintMb: number, reclaim: () => void): SandboxSlot | null {
    if (this.line.length > 0 || this.reservedMb + footprintMb > this.limits.memoryMb) return null;
    const entry = { footprintMb, reclaim };
    this.idle.add(entry);
    this.reservedMb += footprintMb;
    this.peakReservedMb = Math.max(this.peakReservedMb, this.reservedMb);
    let released = false;
    return {
      queuedMs: 0,
      release: () => {
        if (released) return;
        released = true;
        this.idle.delete(entry);
        this.reservedMb -= footprintMb;
        this.admitWaiting();
      },
    };
  }

  private reclaimIdle(): void {
    for (const entry of [...this.idle]) entry.reclaim();
  }

  stats(): SandboxGateStats {
    return {
      running: this.running,
      waiting: this.line.length,
      reservedMb: this.reservedMb,
      peakRunning: this.peakRunning,
      peakReservedMb: this.peakReservedMb,
    };
  }

  private fits(footprintMb: number): boolean {
    return this.running < this.limits.concurrency && this.reservedMb + footprintMb <= this.limits.memoryMb;
  }

  private admit(footprintMb: number, queuedMs: number): SandboxSlot {
    this.running++;
    this.reservedMb += footprintMb;
    this.peakRunning = Math.max(this.peakRunning, this.running);
    this.peakReservedMb = Math.max(this.peakReservedMb, this.reservedMb);
    for (const listener of this.admissionListeners) listener(queuedMs);
    let released = false;
    return {
      queuedMs,
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        this.reservedMb -= footprintMb;
        this.admitWaiting();
      },
    };
  }

  private admitWaiting(): void {
    while (this.line.length > 0 && this.fits(this.line[0]!.footprintMb)) {
      const waiter = this.line.shift()!;
      waiter.forget();
      waiter.admit(this.admit(waiter.footprintMb, this.now() - waiter.enqueuedAt));
    }
  }
}

/**
 * Kept on globalThis under a registered symbol: a bundler may load this module once per route,
 * and Next's dev reloads load it again, but the server's caps must be counted in one place.
 */
const PROCESS_SANDBOXES = Symbol.for("trellis.sandboxes");

interface ProcessSandboxes {
  settings: SandboxSettings;
  gate: SandboxGate;
}

function processSandboxes(): ProcessSandboxes {
  const holder = globalThis as typeof globalThis & { [PROCESS_SANDBOXES]?: ProcessSandboxes };
  if (!holder[PROCESS_SANDBOXES]) {
    const settings = sandboxSettingsFrom((name) => process.env[name]);
    holder[PROCESS_SANDBOXES] = { settings, gate: new SandboxGate(settings) };
  }
  return holder[PROCESS_SANDBOXES];
}

/** This process's sandbox settings, read from the environment once; throws naming an invalid variable. */
export function sandboxSettings(): SandboxSettings {
  return processSandboxes().settings;
}

/** The gate every sandbox of this process goes through. */
export function processSandboxGate(): SandboxGate {
  return processSandboxes().gate;
}
