import { createHash } from "node:crypto";

/**
 * A run's trace is one trace across its attempts and processes (a run paused for a person, or
 * resumed after a crash, goes on elsewhere), so its ids are derived from the run rather than drawn
 * at random: every process names the run's span and each block's span the same way.
 */

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const INVALID_TRACE = "0".repeat(32);
const INVALID_SPAN = "0".repeat(16);

export interface TraceParent {
  traceId: string;
  spanId: string;
  /** W3C trace flags: bit 0 is "sampled". */
  flags: number;
}

/** A W3C `traceparent` header read, or undefined for anything malformed (which is then ignored, as the spec says). */
export function parseTraceParent(text: string | null | undefined): TraceParent | undefined {
  const match = TRACEPARENT.exec(text?.trim().toLowerCase() ?? "");
  if (!match || match[1] === INVALID_TRACE || match[2] === INVALID_SPAN) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, flags: Number.parseInt(match[3]!, 16) };
}

export function formatTraceParent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.spanId}-${parent.flags.toString(16).padStart(2, "0")}`;
}

function digest(text: string, hexLength: number): string {
  const hex = createHash("sha256").update(text).digest("hex").slice(0, hexLength);
  // All zeros is the invalid id; a digest that starts so is vanishingly rare, but never sent.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** The trace id of a run that no caller's trace holds. */
export function runTraceId(runId: string): string {
  return digest(`trellis-trace:${runId}`, 32);
}

/** The span id of the run itself. */
export function runSpanId(runId: string): string {
  return digest(`trellis-run:${runId}`, 16);
}

/** The span id of one of the run's spans (a block, a model call, a tool call) by its id in the run's trace. */
export function recordSpanId(runId: string, recordId: string): string {
  return digest(`trellis-span:${runId}:${recordId}`, 16);
}
