import type { BlockCheckpoint, CheckpointStore } from "../runtime/checkpoint-store";

/** A durable run's store kept in memory: records every save in order, and can make saves slow or failing. */
export class MemoryCheckpoints implements CheckpointStore {
  readonly stored = new Map<string, BlockCheckpoint>();
  readonly saved: string[] = [];
  readonly restored: string[] = [];
  saveDelayMs = 0;
  failOn: string | null = null;
  /** Run from a block: the source run's results, as the run service offers them. */
  reused?: CheckpointStore["reused"];

  constructor(private readonly order: string[] = []) {}

  restore(key: string): BlockCheckpoint | undefined {
    const checkpoint = this.stored.get(key);
    if (checkpoint) this.restored.push(key);
    // A copy, as a real store would read it back: nothing the run does may change what was stored.
    return checkpoint && structuredClone(checkpoint);
  }

  async save(key: string, checkpoint: BlockCheckpoint): Promise<void> {
    this.order.push(`save-begin:${key}`);
    if (this.saveDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.saveDelayMs));
    if (key === this.failOn) throw new Error("disk full");
    this.stored.set(key, structuredClone(checkpoint));
    this.saved.push(key);
    this.order.push(`save-end:${key}`);
  }
}
