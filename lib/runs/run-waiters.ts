import "server-only";

/** How long a run's end is remembered for a waiter that arrives late. */
const REMEMBER_MS = 60_000;

/**
 * Who in this process waits for news of a run (a `wait: true` request, a stream following it
 * from storage): woken when the run ends or stops here, or when a signal from another process
 * says so. Ends are remembered for a while, so a waiter that starts late reads storage at once.
 */
export class RunWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly lately = new Map<string, number>();

  /** Resolves at the next wake for the run, or after `timeoutMs`; `cancel` stops waiting. */
  next(runId: string, timeoutMs: number): { promise: Promise<void>; cancel: () => void } {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    const stop = () => {
      clearTimeout(timer);
      const set = this.waiting.get(runId);
      set?.delete(wake);
      if (set?.size === 0) this.waiting.delete(runId);
    };
    const wake = () => {
      stop();
      resolve();
    };
    const timer = setTimeout(wake, timeoutMs);
    timer.unref?.();
    const set = this.waiting.get(runId) ?? new Set();
    set.add(wake);
    this.waiting.set(runId, set);
    return { promise, cancel: stop };
  }

  /** Wakes the run's waiters: something happened to it, not necessarily its end. */
  notify(runId: string): void {
    for (const wake of [...(this.waiting.get(runId) ?? [])]) wake();
  }

  /** Wakes every waiter (signals may have been missed): each reads storage again. */
  notifyAll(): void {
    for (const runId of [...this.waiting.keys()]) this.notify(runId);
  }

  /** The run ended or stopped: its waiters wake, and a late one reads storage at once. */
  wake(runId: string): void {
    this.lately.set(runId, Date.now());
    if (this.lately.size > 10_000) {
      const cutoff = Date.now() - REMEMBER_MS;
      for (const [id, at] of this.lately) if (at < cutoff) this.lately.delete(id);
    }
    this.notify(runId);
  }

  /** Whether the run ended or stopped here, or a signal said so, lately. */
  endedLately(runId: string): boolean {
    return this.lately.has(runId);
  }
}
