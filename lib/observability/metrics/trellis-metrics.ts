import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Seconds: a start -> response run takes milliseconds, an agent's run minutes. */
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];
const BLOCK_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Labels stay bounded: no run ids; workflow ids only when the operator asks for them. */
export interface MetricsSettings {
  /** TRELLIS_METRICS_WORKFLOW_LABEL=on: runs are counted per workflow too (one series per workflow). */
  workflowLabel: boolean;
}

export function metricsSettingsFrom(env: (name: string) => string | undefined): MetricsSettings {
  const value = env("TRELLIS_METRICS_WORKFLOW_LABEL")?.trim().toLowerCase();
  if (value && !["on", "off", "true", "false", "1", "0"].includes(value))
    throw new Error(`TRELLIS_METRICS_WORKFLOW_LABEL="${value}" must be on or off`);
  return { workflowLabel: value === "on" || value === "true" || value === "1" };
}

/**
 * Every metric this process serves at GET /api/metrics, in one registry. Counters and histograms
 * are updated as things happen (a few additions each); gauges that read the database are read
 * when Prometheus scrapes (app-metrics.ts), never in between.
 */
export function createTrellisMetrics(settings: MetricsSettings) {
  const registry = new Registry();
  const registers = [registry];
  const runLabels = settings.workflowLabel ? ["trigger", "workspace", "workflow"] : ["trigger", "workspace"];
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  return {
    registry,
    settings,
    runsStarted: new Counter({
      name: "trellis_runs_started_total",
      help: "Runs that began executing (a run resumed after a pause or a crash is not counted again).",
      labelNames: runLabels,
      registers,
    }),
    runsEnded: new Counter({
      name: "trellis_runs_total",
      help: "Runs that ended, by how they ended (succeeded, failed, cancelled).",
      labelNames: ["status", ...runLabels],
      registers,
    }),
    runDuration: new Histogram({
      name: "trellis_run_duration_seconds",
      help: "How long ended runs took from start to end, paused time included.",
      labelNames: ["status", "trigger"],
      buckets: RUN_BUCKETS,
      registers,
    }),
    runCost: new Counter({
      name: "trellis_run_cost_usd_total",
      help: "US dollars of runs' priced model calls, by the run's trigger and workspace, counted as each call ends (each call once).",
      labelNames: runLabels,
      registers,
    }),
    blockDuration: new Histogram({
      name: "trellis_block_duration_seconds",
      help: "How long blocks took, by block type and how they ended.",
      labelNames: ["block_type", "status"],
      buckets: BLOCK_BUCKETS,
      registers,
    }),
    queueWait: new Histogram({
      name: "trellis_queue_wait_seconds",
      help: "How long runs waited between being asked for and starting to execute.",
      buckets: WAIT_BUCKETS,
      registers,
    }),
    modelCalls: new Counter({
      name: "trellis_model_calls_total",
      help: "Model calls made, by model and how they ended.",
      labelNames: ["model", "status"],
      registers,
    }),
    modelTokens: new Counter({
      name: "trellis_model_tokens_total",
      help: "Tokens of model calls as the providers reported them, by model and kind (prompt, completion, cached_prompt, reasoning).",
      labelNames: ["model", "kind"],
      registers,
    }),
    modelCost: new Counter({
      name: "trellis_model_cost_usd_total",
      help: "US dollars of priced model calls, by model: the same figures as the runs' cost.",
      labelNames: ["model"],
      registers,
    }),
    unpricedCalls: new Counter({
      name: "trellis_model_unpriced_calls_total",
      help: "Model calls with no known price (their cost is not in trellis_model_cost_usd_total).",
      labelNames: ["model"],
      registers,
    }),
    sandboxWait: new Histogram({
      name: "trellis_sandbox_wait_seconds",
      help: "How long Function sandboxes waited at the gate for a place.",
      buckets: WAIT_BUCKETS,
      registers,
    }),
    traceSpans: new Counter({
      name: "trellis_trace_spans_total",
      help: "Spans handed to the OTLP exporter, by outcome (exported, dropped when the backend failed or was unreachable).",
      labelNames: ["outcome"],
      registers,
    }),
    gauge: (name: string, help: string, collect: (gauge: Gauge) => void | Promise<void>, labelNames: string[] = []) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        collect() {
          return collect(this);
        },
      }),
  };
}

export type TrellisMetrics = ReturnType<typeof createTrellisMetrics>;

const KEY = Symbol.for("trellis.metrics");
type Shared = { [KEY]?: TrellisMetrics };

/** This process's metrics (one registry per process, kept on globalThis since Next bundles routes apart). */
export function processMetrics(): TrellisMetrics {
  const shared = globalThis as Shared;
  shared[KEY] ??= createTrellisMetrics(metricsSettingsFrom((name) => process.env[name]));
  return shared[KEY];
}
