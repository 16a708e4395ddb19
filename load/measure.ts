/**
 * What the load cases measure: the server's resident memory read from /proc (Linux only, as the
 * suite is), latency summaries, and the trend of a series of memory samples.
 */
import { readFileSync } from "node:fs";
import { median, percentile } from "../scripts/bench-throughput/load";

const round = (value: number) => Math.round(value * 10) / 10;

function childrenOf(pid: number): number[] {
  try {
    const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
    return tasks.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function ownRssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // gone between listing and reading
  }
}

/**
 * RSS in MB of `pid` and the processes it started: `next start` serves from its own process today,
 * but a child it may start (a forked server, a helper) would hold the server's memory just the same.
 */
export function rssMb(pid: number): number {
  let kilobytes = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    kilobytes += ownRssKb(next);
    pending.push(...childrenOf(next));
  }
  return round(kilobytes / 1024);
}

export interface RssFigures {
  beforeMb: number;
  peakMb: number;
  afterMb: number;
  samples: number;
}

/** Samples the RSS of `pid` every `everyMs` from `start()` to `stop()`, keeping the peak. */
export class RssSampler {
  private beforeMb = 0;
  private peakMb = 0;
  private samples = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pid: number,
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.beforeMb = rssMb(this.pid);
    this.peakMb = this.beforeMb;
    this.samples = 1;
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  private sample(): number {
    const now = rssMb(this.pid);
    this.peakMb = Math.max(this.peakMb, now);
    this.samples += 1;
    return now;
  }

  stop(): RssFigures {
    clearInterval(this.timer);
    const afterMb = this.sample();
    return { beforeMb: this.beforeMb, peakMb: this.peakMb, afterMb, samples: this.samples };
  }
}

export interface LatencyFigures {
  count: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

export function latencyFigures(values: number[]): LatencyFigures {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    medianMs: round(median(sorted)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? 0),
  };
}

/** The least-squares slope of `y` over `x`: MB per minute for samples of (minutes, MB). */
export function leastSquaresSlope(points: Array<{ x: number; y: number }>): number {
  if (points.length < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / points.length;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / points.length;
  let covariance = 0;
  let variance = 0;
  for (const { x, y } of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
