import "server-only";
import type { RunEvent, SpanRecord } from "@/contract";
import { RunStoppedError } from "@/executor";
import { runLog } from "@/lib/observability";

/**
 * The CPU watchdog of a recovered run. A block that holds the event loop (a quadratic step on a
 * long input, say) freezes its whole process; if the process is then killed or restarted, the run
 * is resumed elsewhere and the same block would freeze the next process too. JavaScript on the
 * main thread cannot be interrupted, so the watchdog counts instead, per block, in the run's
 * memos (they outlive the process):
 * - a trip when the run's process died while the block was running (the recovery closed the
 *   dead process's span of it as `worker_lost`);
 * - a trip when, in a resumed attempt, the event loop was held past LOOP_HOLD_LIMIT_MS while the
 *   block was running (a timer that fires that late shows the hold).
 * A block's second trip stops the run: `worker_lost`, naming the block, before it runs again (a
 * process that died twice in it) or as soon as it lets go of the loop.
 */

/** How long a block may hold the event loop, in one stretch, in a resumed attempt. */
export const LOOP_HOLD_LIMIT_MS = 2_000;
/** Trips of one block that stop the run. */
export const WATCHDOG_TRIPS = 2;
/** How often the watchdog's timer looks: a hold shows as a late tick. */
const TICK_MS = 100;

/** The memo key of a block's trips (memo keys hold a `|`; block memos start with the block's id, which has no `!`). */
export const watchdogKey = (blockId: string) => `!watchdog|${blockId}`;

interface Trips {
  trips: number;
  /** What the trips were, for the run's error. */
  causes: string[];
  /** The dead processes' spans already counted (a later recovery sees them again). */
  spans: string[];
}

export interface RunWatchdogOptions {
  runId: string;
  /** This attempt's process: a running span of another process was left by one that died. */
  worker: string;
  /** The run's memos (restored from earlier attempts); the watchdog's counts are kept among them. */
  memos: Map<string, unknown>;
  /** Stores a memo at once. */
  persist: (key: string, value: unknown) => Promise<void>;
  /** Stops the attempt with this error. */
  stop: (error: RunStoppedError) => void;
  holdLimitMs?: number;
  blockName: (blockId: string) => string;
}

export class RunWatchdog {
  private readonly running = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private lastTick = 0;
  private stopped = false;

  constructor(private readonly options: RunWatchdogOptions) {}

  /** Counts a trip for each block a dead process was running (not counted before); true when one of them stops the run. */
  async countDeaths(spans: readonly SpanRecord[]): Promise<boolean> {
    for (const span of spans) {
      if (
        span.kind !== "block" ||
        span.status !== "failed" ||
        span.error?.code !== "worker_lost" ||
        span.worker === this.options.worker
      )
        continue;
      if (this.tripsOf(span.blockId).spans.includes(span.id)) continue;
      await this.trip(span.blockId, "the process executing the run stopped while it ran", span.id);
    }
    return this.stopped;
  }

  private tripsOf(blockId: string): Trips {
    return (this.options.memos.get(watchdogKey(blockId)) as Trips | undefined) ?? { trips: 0, causes: [], spans: [] };
  }

  /** Follows which blocks are running (the run's events, as the engine reports them). */
  observe(event: RunEvent): void {
    if (event.type === "block.started") this.running.set(event.blockId, (this.running.get(event.blockId) ?? 0) + 1);
    else if (event.type === "block.completed" || event.type === "block.failed") {
      const left = (this.running.get(event.blockId) ?? 1) - 1;
      if (left > 0) this.running.set(event.blockId, left);
      else this.running.delete(event.blockId);
    }
  }

  start(): void {
    this.lastTick = performance.now();
    this.timer = setInterval(() => {
      const now = performance.now();
      const heldMs = now - this.lastTick - TICK_MS;
      this.lastTick = now;
      if (heldMs < (this.options.holdLimitMs ?? LOOP_HOLD_LIMIT_MS)) return;
      const cause = `it held the server's event loop for ${(heldMs / 1000).toFixed(1)} s`;
      for (const blockId of this.running.keys()) void this.trip(blockId, cause);
    }, TICK_MS);
    this.timer.unref();
  }

  stopWatching(): void {
    clearInterval(this.timer);
  }

  private async trip(blockId: string, cause: string, spanId?: string): Promise<void> {
    const key = watchdogKey(blockId);
    const before = this.tripsOf(blockId);
    const now: Trips = {
      trips: before.trips + 1,
      causes: [...before.causes, cause],
      spans: spanId ? [...before.spans, spanId] : before.spans,
    };
    this.options.memos.set(key, now);
    runLog(this.options.runId).warn(`CPU watchdog trip ${now.trips} of block ${blockId}: ${cause}`);
    if (now.trips >= WATCHDOG_TRIPS && !this.stopped) {
      this.stopped = true;
      const name = this.options.blockName(blockId);
      this.options.stop(
        new RunStoppedError(
          "worker_lost",
          `Block "${name}" (${blockId}) tripped the CPU watchdog ${now.trips} times (${now.causes.join("; ")}); the run was stopped so that it cannot freeze another process.`,
          { retryable: false },
        ),
      );
    }
    await this.options.persist(key, now).catch((error: unknown) => {
      runLog(this.options.runId).error("storing a CPU watchdog trip failed", error);
    });
  }
}
