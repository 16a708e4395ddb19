/** What a block left behind in one scope run: its output, or the reason it was skipped. */
export type StoredResult = { kind: "output"; output: unknown } | { kind: "skipped"; reason: string };

/**
 * Block outputs visible to references. Each loop iteration or parallel branch gets a child store,
 * so blocks inside it see their own iteration's outputs first and everything outside after that.
 */
export class OutputStore {
  private readonly results = new Map<string, StoredResult>();

  constructor(readonly parent: OutputStore | null = null) {}

  get(blockId: string): StoredResult | undefined {
    const found = this.results.get(blockId);
    if (found) return found;
    let store = this.parent;
    while (store) {
      const inherited = store.results.get(blockId);
      if (inherited) return inherited;
      store = store.parent;
    }
    return undefined;
  }

  setOutput(blockId: string, output: unknown): void {
    this.results.set(blockId, { kind: "output", output });
  }

  setSkipped(blockId: string, reason: string): void {
    this.results.set(blockId, { kind: "skipped", reason });
  }

  /** This store's own results (not its parents'), to keep with a container's checkpoint. */
  entries(): Array<[string, StoredResult]> {
    return [...this.results];
  }

  /** Puts back results kept by `entries()` (a container restored from its checkpoint). */
  restore(entries: ReadonlyArray<[string, StoredResult]>): void {
    for (const [blockId, result] of entries) this.results.set(blockId, result);
  }

  /** Copies this store's own results into another (a container's last iteration into the scope around it). */
  copyInto(target: OutputStore): void {
    for (const [blockId, result] of this.results) target.results.set(blockId, result);
  }
}
