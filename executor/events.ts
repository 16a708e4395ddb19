import type { RunEvent, SpanRecord } from "@/contract";

/**
 * Where the engine sends what happens. Implementations must not throw and must not block the
 * run: storage batches writes on its own.
 */
export interface RunObserver {
  event(event: RunEvent): void;
  /** Called when a span starts and again when it ends (same id, updated fields). */
  span(span: SpanRecord): void;
}
