import "server-only";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from "@opentelemetry/api";
import { isTerminalEvent, type RunEvent, type RunRecord, type SpanRecord, type Usage } from "@/contract";
import { addUsage, emptyUsage, type SecretRedactor } from "@/executor";
import { blockAttributes, modelAttributes, runAttributes, toolAttributes, usageAttributes } from "./span-attributes";
import { parseTraceParent, recordSpanId, runSpanId, runTraceId } from "./trace-ids";
import type { TracingSdk } from "./tracing-sdk";

export interface RunTraceOptions {
  run: RunRecord;
  workspaceId: string;
  workflowName: string;
  /** The caller's `traceparent` stored with the run when it was asked for: the run's trace is a child of it. */
  traceParent?: string;
  /** The run's redactor: what the spans say is masked by the engine already; prompts and completions pass it again. */
  redactor: SecretRedactor;
}

/** The exported trace of one attempt at a run: fed by the engine's observer, so the export and the editor's trace are the same spans. */
export interface RunTrace {
  event(event: RunEvent): void;
  span(span: SpanRecord): void;
  /** The context a block's outgoing requests carry (`traceparent` naming the block's span). */
  blockContext(spanId: string): Context;
}

const ENDED_STATUS: Partial<Record<RunEvent["type"], string>> = {
  "run.completed": "succeeded",
  "run.failed": "failed",
  "run.cancelled": "cancelled",
};

function spanName(span: SpanRecord): string {
  if (span.kind === "model") return `chat ${span.model ?? span.name ?? "model"}`;
  if (span.kind === "tool") return `execute_tool ${span.name ?? "tool"}`;
  return `${span.blockType} ${span.blockName}`;
}

/**
 * Exports a run's spans as they end, each with the ids derived from the run (trace-ids.ts) and the
 * parent the run's trace gives it: blocks under the run (a loop's or parallel's body blocks under
 * their container, one per iteration), model and tool calls under their block. The run's own
 * span is exported when the run ends, from its start, so a run that paused and went on in another
 * attempt is still one span.
 */
export function runTrace(sdk: TracingSdk, options: RunTraceOptions): RunTrace {
  const { run, workspaceId, redactor } = options;
  const caller = parseTraceParent(options.traceParent);
  const traceId = caller?.traceId ?? runTraceId(run.id);
  const traceFlags = caller?.flags ?? 1;
  const runSpan = runSpanId(run.id);
  const common = runAttributes(run, workspaceId);
  const mask = (text: string) => redactor.redactText(text);
  const contextOf = (spanId: string, isRemote: boolean): Context =>
    trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags, isRemote });
  // What this attempt's model calls spent: the run's figure when it ends without one (a failure).
  let spent: Usage = emptyUsage();

  const exportSpan = (
    name: string,
    spanId: string,
    parent: Context,
    startedAt: string,
    endedAt: Date,
    attributes: Attributes,
    failure?: string,
  ) => {
    const span = sdk.ids.with({ traceId, spanId }, () =>
      sdk.tracer.startSpan(
        name,
        { kind: SpanKind.INTERNAL, startTime: new Date(startedAt), attributes: { ...common, ...attributes } },
        parent,
      ),
    );
    if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
    span.end(endedAt);
  };

  return {
    event(event) {
      if (!isTerminalEvent(event)) return;
      const status = ENDED_STATUS[event.type]!;
      const usage: Usage =
        event.type === "run.completed"
          ? { tokens: event.tokens, cost: event.cost, ...(event.unpriced ? { unpriced: true } : {}) }
          : spent;
      const endedAt =
        event.type === "run.completed" ? new Date(Date.parse(run.startedAt) + event.durationMs) : new Date();
      exportSpan(
        `run ${options.workflowName}`,
        runSpan,
        caller ? contextOf(caller.spanId, true) : ROOT_CONTEXT,
        run.startedAt,
        endedAt,
        { "trellis.span.kind": "run", "trellis.status": status, ...usageAttributes(usage) },
        event.type === "run.failed" ? mask(`${event.error.code}: ${event.error.message}`) : undefined,
      );
    },
    span(span) {
      if (span.status === "running") return;
      if (span.kind === "model" && span.usage) spent = addUsage(spent, span.usage);
      const specific =
        span.kind === "model"
          ? modelAttributes(span, sdk.settings.captureContent, mask)
          : span.kind === "tool"
            ? toolAttributes(span, sdk.settings.captureContent, mask)
            : usageAttributes(span.usage);
      exportSpan(
        spanName(span),
        recordSpanId(run.id, span.id),
        contextOf(span.parentId === null ? runSpan : recordSpanId(run.id, span.parentId), false),
        span.startedAt,
        new Date(span.endedAt ?? Date.now()),
        { ...blockAttributes(span), ...specific },
        span.status === "failed" && span.error ? mask(`${span.error.code}: ${span.error.message}`) : undefined,
      );
    },
    blockContext: (spanId) => contextOf(recordSpanId(run.id, spanId), false),
  };
}
