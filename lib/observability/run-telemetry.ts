import "server-only";
import { context } from "@opentelemetry/api";
import type { RunEvent, RunRecord, SpanRecord } from "@/contract";
import type { BlockHandlerLookup, SecretRedactor } from "@/executor";
import { runLog } from "./masked-log";
import { runMetricsObserver } from "./metrics/run-metrics";
import { processMetrics } from "./metrics/trellis-metrics";
import { activeTracing } from "./tracing/process-tracing";
import { runTrace, type RunTrace } from "./tracing/run-trace";

/** What an attempt at a run tells the operator's tools, fed by the engine's observer (lib/runs/durable/run-execution.ts). */
export interface RunTelemetry {
  event(event: RunEvent): void;
  span(span: SpanRecord): void;
  /**
   * The run's block handlers, each run inside its block's trace context while traces are exported
   * (so what a block sends carries `traceparent`); the same lookup otherwise.
   */
  lookupHandler(lookup: BlockHandlerLookup): BlockHandlerLookup;
}

export interface RunTelemetryOptions {
  redactor: SecretRedactor;
  workflowName: string;
  /** The caller's `traceparent` stored with the run. */
  traceParent?: string;
}

function inBlockContext(lookup: BlockHandlerLookup, trace: RunTrace): BlockHandlerLookup {
  return (type) => {
    const bound = lookup(type);
    if (!bound) return bound;
    return {
      prepare(config) {
        const prepared = bound.prepare(config);
        if (!prepared.ok) return prepared;
        const call = prepared.value;
        return {
          ok: true,
          value: (args) =>
            args.context.spanId === undefined
              ? call(args)
              : context.with(trace.blockContext(args.context.spanId), () => call(args)),
        };
      },
    };
  };
}

/**
 * The telemetry of one attempt at a run: this process's metrics always (a few counter additions
 * per event), and its spans exported as a trace when OTLP is configured (tracing/run-trace.ts).
 * Neither can fail the run: what cannot be recorded is logged once and the run goes on.
 */
export function runTelemetry(run: RunRecord, workspaceId: string, options: RunTelemetryOptions): RunTelemetry {
  const metrics = runMetricsObserver(processMetrics(), run, workspaceId);
  const tracing = activeTracing();
  const trace = tracing
    ? runTrace(tracing, {
        run,
        workspaceId,
        workflowName: options.workflowName,
        redactor: options.redactor,
        ...(options.traceParent ? { traceParent: options.traceParent } : {}),
      })
    : undefined;
  let complained = false;
  const guarded =
    <T>(record: (value: T) => void) =>
    (value: T) => {
      try {
        record(value);
      } catch (error) {
        if (complained) return;
        complained = true;
        runLog(run.id, workspaceId, options.redactor).warn("telemetry could not record part of this run", error);
      }
    };
  return {
    event: guarded((event: RunEvent) => {
      metrics.event(event);
      trace?.event(event);
    }),
    span: guarded((span: SpanRecord) => {
      metrics.span(span);
      trace?.span(span);
    }),
    lookupHandler: (lookup) => (trace ? inBlockContext(lookup, trace) : lookup),
  };
}
