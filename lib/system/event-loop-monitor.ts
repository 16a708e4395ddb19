import type { EventLoopWindow } from "@/contract";
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from "node:perf_hooks";

/** How long one measuring window lasts: long enough for a p99, short enough to show a stall that just passed. */
export const EVENT_LOOP_WINDOW_MS = 10_000;
/** The histogram's sampling period: a stall shorter than this may be missed, a longer one never is. */
const RESOLUTION_MS = 10;

export interface EventLoopReport {
  /** The window in progress. */
  current: EventLoopWindow;
  /** The last complete window, or null in the first seconds after start. */
  previous: EventLoopWindow | null;
}

const nsToMs = (ns: number) => Math.round((ns / 1e6) * 10) / 10;

function windowOf(histogram: IntervalHistogram, utilization: EventLoopUtilization, windowMs: number): EventLoopWindow {
  // An empty histogram reports its extremes as huge sentinels; no sample means no delay was seen.
  const empty = histogram.count === 0;
  return {
    delayMs: {
      p50: empty ? 0 : nsToMs(histogram.percentile(50)),
      p99: empty ? 0 : nsToMs(histogram.percentile(99)),
      max: empty ? 0 : nsToMs(histogram.max),
    },
    utilization: Math.round(utilization.utilization * 1000) / 1000,
    windowMs: Math.round(windowMs),
  };
}

/**
 * Measures how long the server's thread keeps requests waiting, with Node's own histogram
 * (perf_hooks), in rolling windows: the operator sees the last complete window and the one in
 * progress rather than an average since start that would hide a stall.
 */
export class EventLoopMonitor {
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private utilizationMark = performance.eventLoopUtilization();
  private windowStartedAt = performance.now();
  private previous: EventLoopWindow | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly windowMs = EVENT_LOOP_WINDOW_MS) {}

  start(): this {
    if (this.timer) return this;
    this.histogram.enable();
    this.timer = setInterval(() => this.roll(), this.windowMs);
    this.timer.unref?.();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.histogram.disable();
  }

  report(): EventLoopReport {
    return { current: this.current(), previous: this.previous };
  }

  /** Ends the window in progress and starts the next one. */
  roll(): void {
    this.previous = this.current();
    this.histogram.reset();
    this.utilizationMark = performance.eventLoopUtilization();
    this.windowStartedAt = performance.now();
  }

  private current(): EventLoopWindow {
    return windowOf(
      this.histogram,
      performance.eventLoopUtilization(this.utilizationMark),
      performance.now() - this.windowStartedAt,
    );
  }
}

const globalCache = globalThis as typeof globalThis & { __trellisEventLoopMonitor?: EventLoopMonitor };

/** The process's monitor, started on first use; shared by every bundle of the app (Next.js loads route modules separately). */
export function eventLoopMonitor(): EventLoopMonitor {
  globalCache.__trellisEventLoopMonitor ??= new EventLoopMonitor().start();
  return globalCache.__trellisEventLoopMonitor;
}
