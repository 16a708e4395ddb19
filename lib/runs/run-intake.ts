/** The longest a queued run defers to run starts being accepted, so a steady stream of starts cannot starve execution. */
export const INTAKE_PRIORITY_MAX_WAIT_MS = 250;
/**
 * More starts than this being accepted at once is a burst. Under steady load a few starts are always being accepted
 * (each waits for its row's group commit), so waiting for none would hold every run for the bound above and bunch
 * the clients into waves; a burst is different: its starts are answered before any run executes.
 */
export const BURST_STARTS_IN_FLIGHT = 16;

/** Resolves after the I/O callbacks already due have run (one macrotask turn). */
const afterDueIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Run starts being accepted by this process. Executing a run is CPU work on the same thread that
 * answers them, so during a burst, work that executes runs (starting a run, handing a run to the
 * queue) waits until no start is being accepted, for at most a bounded time: the burst's starts are
 * answered first and executed after, instead of every answer waiting behind the runs already started.
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

  /** A burst of starts is being accepted now: past this, a start's run is queued rather than executed at once. */
  get inBurst(): boolean {
    return this.accepting > BURST_STARTS_IN_FLIGHT;
  }

  /**
   * Before work that executes a run (starting it, handing it to the queue): during a burst, once its starts are
   * answered (at most INTAKE_PRIORITY_MAX_WAIT_MS); otherwise after the I/O already due, so the answers and the
   * request bodies that have arrived go first.
   */
  beforeExecuting(): Promise<void> {
    return this.inBurst ? this.whenQuiet() : afterDueIo();
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
