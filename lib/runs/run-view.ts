import type { SpanRecord } from "@/executor/events";
import type { StoredRun } from "@/lib/db";

/** A span as the API shows it (CONTRACT.md section 5): usage spread into tokens and cost. */
export function toApiSpan(span: SpanRecord) {
  const { usage, ...rest } = span;
  return {
    ...rest,
    parentId: span.parentId,
    model: span.model ?? null,
    iteration: span.iteration ?? null,
    tokens: usage?.tokens ?? null,
    cost: usage ? usage.cost : null,
    unpriced: usage?.unpriced ?? false,
    estimated: usage?.estimated ?? false,
  };
}

export type ApiSpan = ReturnType<typeof toApiSpan>;

export function toApiRun(run: StoredRun & { spans: SpanRecord[] }) {
  return { ...run, spans: run.spans.map(toApiSpan) };
}
