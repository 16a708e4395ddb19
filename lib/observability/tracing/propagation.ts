import "server-only";
import { context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { activeTracing } from "./process-tracing";
import { parseTraceParent } from "./trace-ids";

/**
 * W3C trace context in and out, only while traces are exported (with OTLP unset each of these is
 * one check): an incoming `traceparent` makes what the request starts part of the caller's trace,
 * and what a run's block sends names the block's span as its parent.
 */

/** Runs `work` in the caller's trace context when the request carries a valid `traceparent`. */
export function withIncomingTrace<T>(request: Request, work: () => T): T {
  if (!activeTracing()) return work();
  const traceparent = request.headers.get("traceparent");
  if (!parseTraceParent(traceparent)) return work();
  const tracestate = request.headers.get("tracestate");
  const carrier = { traceparent: traceparent!, ...(tracestate ? { tracestate } : {}) };
  return context.with(propagation.extract(ROOT_CONTEXT, carrier), work);
}

/** The `traceparent` of the context in force (a request's caller, a block of a run), or undefined. */
export function currentTraceParent(): string | undefined {
  if (!activeTracing()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

export const TRACE_EXTERNAL_HOSTS_VARIABLE = "TRELLIS_TRACE_EXTERNAL_HOSTS";

/** TRELLIS_TRACE_EXTERNAL_HOSTS: hosts (and their subdomains) that are never sent `traceparent`. */
export function externalHostsFrom(text: string | undefined): (host: string) => boolean {
  const entries = (text ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase().replace(/^\*\./, ""))
    .filter(Boolean);
  if (entries.length === 0) return () => false;
  return (host) => {
    const name = host.toLowerCase();
    return entries.some((entry) => entry === "*" || name === entry || name.endsWith(`.${entry}`));
  };
}

/** The trace headers a request to `url` carries from the context in force: none for an external host or outside a trace. */
export function outgoingTraceHeaders(url: string, external: (host: string) => boolean): Record<string, string> {
  if (!activeTracing()) return {};
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return {};
  }
  if (external(host)) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}
