import "server-only";
import { isTerminalEvent, type RunEvent, type RunRecord, type SpanRecord } from "@/contract";
import type { TrellisMetrics } from "./trellis-metrics";

/** What a run is counted under: its trigger and workspace (and workflow, when the operator asked for that label). */
function runLabels(metrics: TrellisMetrics, run: RunRecord, workspaceId: string): Record<string, string> {
  return {
    trigger: run.trigger?.kind ?? "editor",
    workspace: workspaceId,
    ...(metrics.settings.workflowLabel ? { workflow: run.workflowId } : {}),
  };
}

const TERMINAL_STATUS: Partial<Record<RunEvent["type"], string>> = {
  "run.completed": "succeeded",
  "run.failed": "failed",
  "run.cancelled": "cancelled",
};

/** The engine's observer calls for one attempt at a run, as metrics: a few counter additions per event or span. */
export interface RunMetricsObserver {
  event(event: RunEvent): void;
  span(span: SpanRecord): void;
}

/**
 * Counts what one attempt at a run reports: its start and end, its blocks' durations, and each
 * model call's tokens and dollars exactly as its span carries them (each call once, when it ends).
 */
export function runMetricsObserver(metrics: TrellisMetrics, run: RunRecord, workspaceId: string): RunMetricsObserver {
  const labels = runLabels(metrics, run, workspaceId);
  return {
    event(event) {
      if (event.type === "run.started") {
        metrics.runsStarted.inc(labels);
        const waitedMs = Date.parse(run.startedAt) - Date.parse(run.queuedAt);
        if (Number.isFinite(waitedMs)) metrics.queueWait.observe(Math.max(0, waitedMs) / 1000);
        return;
      }
      if (!isTerminalEvent(event)) return;
      const status = TERMINAL_STATUS[event.type]!;
      metrics.runsEnded.inc({ status, ...labels });
      const durationMs = event.type === "run.completed" ? event.durationMs : Date.now() - Date.parse(run.startedAt);
      metrics.runDuration.observe({ status, trigger: labels.trigger! }, Math.max(0, durationMs) / 1000);
    },
    span(span) {
      if (span.status === "running") return;
      if (span.kind === "block") {
        if (span.durationMs !== undefined)
          metrics.blockDuration.observe({ block_type: span.blockType, status: span.status }, span.durationMs / 1000);
        return;
      }
      if (span.kind !== "model") return;
      const model = span.model ?? span.name ?? "unknown";
      metrics.modelCalls.inc({ model, status: span.status });
      const usage = span.usage;
      if (!usage) return;
      const { tokens } = usage;
      metrics.modelTokens.inc({ model, kind: "prompt" }, tokens.prompt);
      metrics.modelTokens.inc({ model, kind: "completion" }, tokens.completion);
      if (tokens.cachedPrompt) metrics.modelTokens.inc({ model, kind: "cached_prompt" }, tokens.cachedPrompt);
      if (tokens.reasoning) metrics.modelTokens.inc({ model, kind: "reasoning" }, tokens.reasoning);
      if (usage.cost) {
        metrics.modelCost.inc({ model }, usage.cost.total);
        metrics.runCost.inc(labels, usage.cost.total);
      } else if (usage.unpriced) metrics.unpricedCalls.inc({ model });
    },
  };
}
