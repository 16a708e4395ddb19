import "server-only";
import type { TrellisMetrics } from "@/lib/observability";
import type { SandboxGate } from "@/sandbox";

/** Where the figures read at scrape time come from (app-metrics.ts gives the database's and this process's). */
export interface GaugeSources {
  /** Runs stored `queued`, across every process. */
  queueDepth(): Promise<number>;
  /** Worker processes holding a live lease (their heartbeat is younger than the lease). */
  workerLeases(): Promise<number>;
  /** Knowledge documents waiting to be processed, and being processed. */
  knowledgeQueue(): Promise<{ pending: number; processing: number }>;
  /** Runs executing in this process now. */
  liveRuns(): number;
  sandbox: SandboxGate;
}

// On globalThis: Next bundles each route apart (and reloads them in development), while the registry is one per process.
const REGISTERED = Symbol.for("trellis.metrics.process-gauges");
function registeredOnce(): WeakSet<TrellisMetrics> {
  const shared = globalThis as { [REGISTERED]?: WeakSet<TrellisMetrics> };
  shared[REGISTERED] ??= new WeakSet();
  return shared[REGISTERED];
}

/**
 * The gauges Prometheus reads when it scrapes: the database's figures are asked for then (a count
 * each, over an index), never in between. A figure that cannot be read (the database is away) is
 * NaN, which Prometheus shows as a gap, rather than a stale number.
 */
export function registerProcessGauges(metrics: TrellisMetrics, sources: GaugeSources): void {
  const registered = registeredOnce();
  if (registered.has(metrics)) return;
  registered.add(metrics);
  const read = async (set: (value: number) => void, value: () => Promise<number>) => {
    try {
      set(await value());
    } catch {
      set(Number.NaN);
    }
  };
  metrics.gauge("trellis_queue_depth", "Runs stored queued, waiting for a worker (all processes).", (gauge) =>
    read((value) => gauge.set(value), sources.queueDepth),
  );
  metrics.gauge("trellis_worker_leases", "Worker processes holding a live lease on the run queue.", (gauge) =>
    read((value) => gauge.set(value), sources.workerLeases),
  );
  metrics.gauge(
    "trellis_knowledge_documents",
    "Knowledge documents in the ingestion queue, by status (pending, processing).",
    async (gauge) => {
      try {
        const queue = await sources.knowledgeQueue();
        gauge.set({ status: "pending" }, queue.pending);
        gauge.set({ status: "processing" }, queue.processing);
      } catch {
        gauge.set({ status: "pending" }, Number.NaN);
        gauge.set({ status: "processing" }, Number.NaN);
      }
    },
    ["status"],
  );
  metrics.gauge("trellis_live_runs", "Runs executing in this process.", (gauge) => gauge.set(sources.liveRuns()));
  metrics.gauge("trellis_sandbox_running", "Function sandboxes running in this process.", (gauge) =>
    gauge.set(sources.sandbox.stats().running),
  );
  metrics.gauge("trellis_sandbox_waiting", "Function sandboxes waiting at the gate for a place.", (gauge) =>
    gauge.set(sources.sandbox.stats().waiting),
  );
  metrics.gauge(
    "trellis_sandbox_reserved_megabytes",
    "Memory reserved by the running sandboxes, of TRELLIS_SANDBOX_MEMORY_MB.",
    (gauge) => gauge.set(sources.sandbox.stats().reservedMb),
  );
  metrics.gauge(
    "trellis_sandbox_capacity",
    "How many sandboxes may run at once (TRELLIS_SANDBOX_CONCURRENCY).",
    (gauge) => gauge.set(sources.sandbox.limits.concurrency),
  );
  sources.sandbox.onAdmitted((queuedMs) => metrics.sandboxWait.observe(queuedMs / 1000));
}
