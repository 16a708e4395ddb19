/** Caps how many block handlers run at once in one run. FIFO, so waiting blocks start in order. */
export class Semaphore {
  private available: number;
  private readonly waiters: Array<() => void> = [];
  private head = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${limit}`);
    this.available = limit;
  }

  /** Resolves once a slot is held; returns undefined when one was free at once, saving a tick. */
  acquire(): Promise<void> | undefined {
    if (this.available > 0) {
      this.available -= 1;
      return undefined;
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    if (this.head < this.waiters.length) {
      const next = this.waiters[this.head]!;
      this.waiters[this.head] = undefined as unknown as () => void;
      this.head += 1;
      if (this.head > 1024 && this.head * 2 > this.waiters.length) {
        this.waiters.splice(0, this.head);
        this.head = 0;
      }
      next();
      return;
    }
    this.available += 1;
  }
}
