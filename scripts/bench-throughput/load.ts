/**
 * The closed-loop load of the throughput bench: `concurrency` clients, each sending its next request
 * as soon as the answer to its last one has arrived, over keep-alive connections (undici). Requests
 * that end during the warm-up are not counted; the measured time is cut into windows, and the
 * figure is the median of the windows' rates.
 */
import { Agent, request } from "undici";

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  windowMs: number;
  /** Judges a 200 answer's body: an error message, or null when it is what was asked for. */
  check?: (body: string) => string | null;
  /** Called when the measured time starts and ends (the profiler's window). */
  onMeasure?: (phase: "start" | "end") => void;
}

export interface LoadResult {
  concurrency: number;
  durationS: number;
  /** Median over the windows of (successful runs ended in the window / window length). */
  runsPerSecond: number;
  /** Successful runs ended in the measured time / its length. */
  meanRunsPerSecond: number;
  windows: number[];
  completed: number;
  errors: number;
  warmupErrors: number;
  firstError: string | null;
  latencyMs: { median: number; p99: number; mean: number; max: number };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function closedLoop(options: LoadOptions): Promise<LoadResult> {
  const dispatcher = new Agent({
    connections: options.concurrency,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  const windowCount = Math.max(1, Math.floor(options.durationMs / options.windowMs));
  const windowMs = options.durationMs / windowCount;
  const windows = new Array<number>(windowCount).fill(0);
  const latencies: number[] = [];
  let errors = 0;
  let warmupErrors = 0;
  let firstError: string | null = null;

  const began = performance.now();
  const measureFrom = began + options.warmupMs;
  const measureTo = measureFrom + options.durationMs;
  const startTimer = setTimeout(() => options.onMeasure?.("start"), options.warmupMs);
  const endTimer = setTimeout(() => options.onMeasure?.("end"), options.warmupMs + options.durationMs);

  const fail = (ended: number, message: string) => {
    firstError ??= message;
    if (ended >= measureFrom && ended < measureTo) errors += 1;
    else if (ended < measureFrom) warmupErrors += 1;
  };

  const client = async () => {
    while (performance.now() < measureTo) {
      const sent = performance.now();
      try {
        const answer = await request(options.url, {
          method: "POST",
          headers: options.headers,
          body: options.body,
          dispatcher,
        });
        const text = await answer.body.text();
        const ended = performance.now();
        const problem =
          answer.statusCode === 200
            ? (options.check?.(text) ?? null)
            : `HTTP ${answer.statusCode}: ${text.slice(0, 2_000)}`;
        if (problem) {
          fail(ended, problem);
          continue;
        }
        if (ended >= measureFrom && ended < measureTo) {
          windows[Math.min(windowCount - 1, Math.floor((ended - measureFrom) / windowMs))]! += 1;
          latencies.push(ended - sent);
        }
      } catch (error) {
        fail(
          performance.now(),
          `request failed: ${error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ""}` : String(error)}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 20)); // no hot loop against a server that is gone
      }
    }
  };

  try {
    // Clients start spread over the first 100 ms rather than all in one tick.
    await Promise.all(
      Array.from({ length: options.concurrency }, (_, index) =>
        new Promise((resolve) => setTimeout(resolve, (index * 100) / options.concurrency)).then(client),
      ),
    );
  } finally {
    clearTimeout(startTimer);
    clearTimeout(endTimer);
    await dispatcher.close().catch(() => {});
  }

  latencies.sort((a, b) => a - b);
  const completed = latencies.length;
  const rates = windows.map((count) => count / (windowMs / 1000));
  return {
    concurrency: options.concurrency,
    durationS: options.durationMs / 1000,
    runsPerSecond: round(median(rates)),
    meanRunsPerSecond: round(completed / (options.durationMs / 1000)),
    windows: rates.map((rate) => round(rate)),
    completed,
    errors,
    warmupErrors,
    firstError,
    latencyMs: {
      median: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      mean: round(completed ? latencies.reduce((sum, value) => sum + value, 0) / completed : 0),
      max: round(latencies.at(-1) ?? 0),
    },
  };
}
