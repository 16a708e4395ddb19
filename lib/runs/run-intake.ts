/** The longest a queued run defers to run starts being accepted, so a steady stream of starts cannot starve execution. */
export const INTAKE_PRIORITY_MAX_WAIT_MS = 250;

/**
 * Run starts being accepted by this process. Executing a queued run is CPU work on the same thread
 * that answers them, so queued work (starting a run, handing a run to the queue) waits until no
 * start is being accepted, for at most a bounded time: a burst of starts is answered first and
 * executed after, instead of every answer waiting behind the runs already started.
 */
export class RunIntake {
  private accepting = 0;
  private readonly waiters = new Set<() => void>();
  private checkScheduled = false;

  /** Counts `work` as accepting a run start while it lasts. */
  async accept<T>(work: () => Promise<T>): Promise<T> {
    this.accepting++;
    try {
      return await work();
    } finally {
      this.accepting--;
      if (this.accepting === 0) this.scheduleCheck();
    }
  }

  get busy(): boolean {
    return this.accepting > 0;
  }

  /** Run starts being accepted now (a burst has many). */
  get inFlight(): number {
    return this.accepting;
  }

  /** Resolves once no start is being accepted, or after `maxWaitMs` whatever happens. */
  whenQuiet(maxWaitMs = INTAKE_PRIORITY_MAX_WAIT_MS): Promise<void> {
    if (this.accepting === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiters.add(done);
    });
  }

  /**
   * Releases the waiters only if the intake is still idle after the I/O already due: the starts of
   * a burst arrive a few at a time, and one finishing should not let queued work in before the
   * next one is read.
   */
  private scheduleCheck(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setImmediate(() => {
      this.checkScheduled = false;
      if (this.accepting === 0) for (const release of [...this.waiters]) release();
    });
  }
}

const globalCache = globalThis as typeof globalThis & { __trellisRunIntake?: RunIntake };

/** This process's intake, shared by every bundle of the app (the queue's worker and the routes load separately). */
export function runIntake(): RunIntake {
  globalCache.__trellisRunIntake ??= new RunIntake();
  return globalCache.__trellisRunIntake;
}
