import "server-only";
import { diag, DiagLogLevel, type Tracer } from "@opentelemetry/api";
import type { IdGenerator, ReadableSpan, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { processLogger } from "../logger";
import { processMetrics } from "../metrics/trellis-metrics";
import type { OtlpSettings } from "./otlp-settings";

/**
 * Span ids the next span is given. The tracer asks its id generator for a span's ids while it
 * builds the span, synchronously; `AssignedIds.with` names them for that one call, so a run's
 * spans get the ids derived from the run (trace-ids.ts) and every process agrees on them.
 */
export class AssignedIds implements IdGenerator {
  private traceId: string | undefined;
  private spanId: string | undefined;

  with<T>(ids: { traceId: string; spanId: string }, make: () => T): T {
    this.traceId = ids.traceId;
    this.spanId = ids.spanId;
    try {
      return make();
    } finally {
      this.traceId = undefined;
      this.spanId = undefined;
    }
  }

  generateTraceId(): string {
    return this.traceId ?? randomHex(16);
  }

  generateSpanId(): string {
    return this.spanId ?? randomHex(8);
  }
}

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/** Counts what the exporter delivered and what it lost (a backend down or refusing): runs never wait for it. */
class CountingExporter implements SpanExporter {
  private failing = false;

  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter["export"]>[1]): void {
    this.inner.export(spans, (result) => {
      // ExportResultCode.SUCCESS is 0.
      const exported = result.code === 0;
      processMetrics().traceSpans.inc({ outcome: exported ? "exported" : "dropped" }, spans.length);
      if (!exported && !this.failing)
        processLogger().warn(
          { err: result.error, spans: spans.length },
          "traces could not be exported to the OTLP endpoint; spans are dropped until it answers (trellis_trace_spans_total)",
        );
      else if (exported && this.failing) processLogger().info("traces are exported to the OTLP endpoint again");
      this.failing = !exported;
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export const TRACER_NAME = "trellis";

/**
 * Hands on only the spans of Trellis's own tracer: once a tracer provider is registered, Next.js
 * traces every request it serves (a metrics scrape included) with its own tracer, and those spans
 * would make a trace of their own per request in the operator's backend.
 */
class OwnSpansOnly implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}

  onStart(...args: Parameters<SpanProcessor["onStart"]>): void {
    this.inner.onStart(...args);
  }

  onEnd(span: ReadableSpan): void {
    if (span.instrumentationScope.name === TRACER_NAME) this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

export interface TracingSdk {
  settings: OtlpSettings;
  tracer: Tracer;
  ids: AssignedIds;
  /** Exports every span ended so far (tests; shutdown). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Loads the OpenTelemetry SDK and the OTLP exporter of the configured protocol (only now: with
 * OTLP unset none of this is loaded) and registers it for the process: the tracer provider, the
 * AsyncLocalStorage context manager and the W3C trace-context propagator.
 */
export async function startTracingSdk(settings: OtlpSettings, version: string): Promise<TracingSdk> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, resources, exporters] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/resources"),
    settings.protocol === "http/json"
      ? import("@opentelemetry/exporter-trace-otlp-http")
      : import("@opentelemetry/exporter-trace-otlp-proto"),
  ]);
  // The SDK's own complaints (an endpoint refusing, a bad header) reach the server's log, masked like every line.
  diag.setLogger(
    {
      error: (message, ...args) => processLogger().warn({ component: "opentelemetry", args }, message),
      warn: (message, ...args) => processLogger().warn({ component: "opentelemetry", args }, message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const ids = new AssignedIds();
  const exporter = new CountingExporter(new exporters.OTLPTraceExporter());
  const resource = resources
    .resourceFromAttributes({ "service.name": "trellis", "service.version": version })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    idGenerator: ids,
    spanProcessors: [new OwnSpansOnly(new BatchSpanProcessor(exporter))],
  });
  provider.register();
  return {
    settings,
    tracer: provider.getTracer(TRACER_NAME, version),
    ids,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
