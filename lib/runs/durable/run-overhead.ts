import type { RunOverhead, SpanRecord } from "@/contract";

type Interval = [from: number, to: number];

/** The length of the union of `intervals` clipped to [from, to]. */
function covered(intervals: readonly Interval[], from: number, to: number): number {
  const clipped = intervals
    .map(([start, end]): Interval => [Math.max(start, from), Math.min(end, to)])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = from;
  for (const [start, end] of clipped) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return total;
}

/**
 * Measures where one attempt's time went that was no block's (contract RunOverhead): it sees the
 * attempt's block spans and times its waits for storage; what is left between the first block's
 * start and the attempt's end, covered by neither, is the engine's own time between blocks.
 */
export class RunOverheadMeter {
  private readonly blocks = new Map<string, Interval>();
  private readonly storage: Interval[] = [];

  constructor(
    /** When the run was stored (ms since the epoch). */
    private readonly queuedAt: number,
    /** When it started: a queued run when a process took it, one executed at once when it was stored. */
    private readonly startedAt: number,
    /** When this attempt began (now, unless told). */
    private readonly attemptStartedAt = Date.now(),
    private readonly clock: () => number = Date.now,
  ) {}

  /** Sees a span's latest state; only blocks count (a model call inside one is the block's time). */
  span(span: Pick<SpanRecord, "id" | "kind" | "startedAt" | "endedAt">): void {
    if (span.kind !== "block" || span.startedAt === undefined) return;
    const start = Date.parse(span.startedAt);
    const end = span.endedAt ? Date.parse(span.endedAt) : Number.POSITIVE_INFINITY;
    if (Number.isFinite(start)) this.blocks.set(span.id, [start, end]);
  }

  /** Runs `write` (storage the run waits for) and counts its time. */
  async storing<T>(write: () => Promise<T>): Promise<T> {
    const from = this.clock();
    try {
      return await write();
    } finally {
      this.storage.push([from, this.clock()]);
    }
  }

  /** The figures once the attempt has ended at `endedAt`. */
  figures(endedAt = this.clock()): RunOverhead {
    const blocks = [...this.blocks.values()].map(([start, end]): Interval => [start, Math.min(end, endedAt)]);
    const firstBlock = blocks.length === 0 ? endedAt : Math.min(...blocks.map(([start]) => start));
    const storageMs = covered(this.storage, this.attemptStartedAt, endedAt);
    const between = endedAt - firstBlock - covered([...blocks, ...this.storage], firstBlock, endedAt);
    return {
      queueMs: Math.max(0, Math.round(this.startedAt - this.queuedAt)),
      startMs: Math.max(0, Math.round(firstBlock - this.attemptStartedAt)),
      storageMs: Math.max(0, Math.round(storageMs)),
      betweenBlocksMs: Math.max(0, Math.round(between)),
    };
  }
}
