import "server-only";

interface Waiter {
  workspaceId: string;
  take: () => void;
}

/**
 * The runs this process executes at once, within its limits (per process, and per workspace as
 * far as this process goes). A run started here with a slot free executes at once (`tryTake`);
 * a run the queue hands over waits its turn (`take`), so runs executed at once and runs from the
 * queue together never exceed the limits. A start never jumps runs already waiting.
 */
export class RunSlots {
  private total = 0;
  private readonly byWorkspace = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly perProcess: number,
    private readonly perWorkspace: number,
  ) {}

  private fits(workspaceId: string): boolean {
    return this.total < this.perProcess && (this.byWorkspace.get(workspaceId) ?? 0) < this.perWorkspace;
  }

  private hold(workspaceId: string): void {
    this.total += 1;
    this.byWorkspace.set(workspaceId, (this.byWorkspace.get(workspaceId) ?? 0) + 1);
  }

  /** Takes a slot if one is free now and nobody waits for one; answers whether it did. */
  tryTake(workspaceId: string): boolean {
    if (this.waiting.length > 0 || !this.fits(workspaceId)) return false;
    this.hold(workspaceId);
    return true;
  }

  /** Resolves once a slot is the caller's, in the order callers asked (a workspace at its limit lets the next go first). */
  take(workspaceId: string): Promise<void> {
    if (this.waiting.length === 0 && this.fits(workspaceId)) {
      this.hold(workspaceId);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push({ workspaceId, take: resolve }));
  }

  give(workspaceId: string): void {
    this.total = Math.max(0, this.total - 1);
    const left = (this.byWorkspace.get(workspaceId) ?? 1) - 1;
    if (left > 0) this.byWorkspace.set(workspaceId, left);
    else this.byWorkspace.delete(workspaceId);
    for (let index = 0; index < this.waiting.length && this.total < this.perProcess;) {
      const waiter = this.waiting[index]!;
      if (!this.fits(waiter.workspaceId)) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      this.hold(waiter.workspaceId);
      waiter.take();
    }
  }

  /** Runs executing here now. */
  get used(): number {
    return this.total;
  }
}
