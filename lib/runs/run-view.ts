import "server-only";
import type { ApiRun, ApiSpan, RunRecord, SpanRecord } from "@/contract";

/** A span as the API shows it (docs/CONTRACT.md section 5): usage spread into tokens and cost. */
export function toApiSpan(span: SpanRecord): ApiSpan {
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

export function toApiRun(run: RunRecord & { spans: SpanRecord[] }): ApiRun {
  return { ...run, spans: run.spans.map(toApiSpan) };
}
