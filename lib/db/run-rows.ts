import "server-only";
import type { ErrorInfo, RunOverhead, RunRecord, RunStatus, SpanRecord, Usage } from "@/contract";
import { emptyUsage } from "@/executor";
import { uuidV7 } from "./uuid-v7";
import { InvalidInputError } from "./errors";
import { toDate, toJsonValue } from "./json-value";
import type { NewRun } from "./run-repository";
import { costFromColumns, tokensFromColumns, usageToColumns, type UsageColumns } from "./usage-columns";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * A run's row as the group-commit writer inserts and ends it (run-writer.ts), and the record it
 * stands for, made here rather than read back: a run started and finished in this process never
 * needs its own row read.
 */

/** The columns of a new run, snake_case as `jsonb_to_recordset` takes them. */
export type RunInsertRow = Record<string, unknown> & { id: string };

/** The columns a run's end sets, applied only while it is still running or paused. */
export type RunEndRow = Record<string, unknown> & { id: string };

export interface RunEnd {
  status: Extract<RunStatus, "succeeded" | "failed" | "cancelled">;
  output: unknown;
  error: ErrorInfo | null;
  endedAt: Date;
  durationMs: number;
  usage: Usage;
  overhead?: RunOverhead;
}

const STATUSES: readonly RunStatus[] = ["queued", "running"];

function usageRow(columns: UsageColumns): Record<string, unknown> {
  return {
    prompt_tokens: columns.promptTokens,
    completion_tokens: columns.completionTokens,
    total_tokens: columns.totalTokens,
    cached_prompt_tokens: columns.cachedPromptTokens,
    cache_write_tokens: columns.cacheWriteTokens,
    reasoning_tokens: columns.reasoningTokens,
    cost_input: columns.costInput,
    cost_output: columns.costOutput,
    cost_total: columns.costTotal,
    cost_reasoning: columns.costReasoning,
    unpriced: columns.unpriced,
    estimated: columns.estimated,
  };
}

/** What the usage columns read back as, without reading them. */
function usageFigures(columns: UsageColumns): Pick<RunRecord, "tokens" | "cost" | "unpriced" | "estimated"> {
  const decimal = (value: string | null) => (value === null ? null : new Prisma.Decimal(value));
  const stored = {
    ...columns,
    costInput: decimal(columns.costInput),
    costOutput: decimal(columns.costOutput),
    costTotal: decimal(columns.costTotal),
    costReasoning: decimal(columns.costReasoning),
  };
  return {
    tokens: tokensFromColumns(stored),
    cost: costFromColumns(stored),
    unpriced: columns.unpriced,
    estimated: columns.estimated,
  };
}

/** A new run's row (a fresh UUIDv7 id unless given) and the record it will read back as. */
export function newRunRow(run: NewRun): { row: RunInsertRow; record: RunRecord } {
  const status = run.status ?? "queued";
  if (!STATUSES.includes(status))
    throw new InvalidInputError(`a new run is queued or running, not "${status}"`, "status");
  const now = new Date();
  const id = run.id ?? uuidV7(now.getTime());
  const startedAt = run.startedAt === undefined ? now : toDate(run.startedAt, "startedAt");
  const queuedAt = run.queuedAt === undefined ? now : toDate(run.queuedAt, "queuedAt");
  const input = toJsonValue(run.input ?? {}, "input") as Record<string, unknown>;
  const budget =
    run.budget === undefined ? null : (toJsonValue(run.budget, "budget") as unknown as RunRecord["budget"]);
  // A run that has spent nothing yet costs $0 (known), not "unpriced".
  const usage = usageToColumns(emptyUsage());
  const trigger = run.trigger ?? { kind: "editor" as const };
  const row: RunInsertRow = {
    id,
    workspace_id: run.workspaceId,
    workflow_id: run.workflowId,
    status,
    input,
    document: run.document === undefined ? null : toJsonValue(run.document, "document"),
    workflow_version: run.workflowVersion ?? null,
    parent_run_id: run.parentRunId ?? null,
    worker: run.worker ?? null,
    trigger_kind: trigger.kind,
    api_key_id: trigger.apiKeyId ?? null,
    user_id: trigger.userId ?? null,
    webhook_id: trigger.webhookId ?? null,
    schedule_id: trigger.scheduleId ?? null,
    conversation_id: trigger.conversationId ?? null,
    deployment_id: run.deploymentId ?? null,
    rerun_of_run_id: run.rerunOf?.runId ?? null,
    rerun_of_block_id: run.rerunOf?.blockId ?? null,
    replay_of_run_id: run.replayOf ?? null,
    test: Boolean(run.test),
    budget,
    trace_parent: run.traceParent ?? null,
    started_at: startedAt.toISOString(),
    queued_at: queuedAt.toISOString(),
    ...usageRow(usage),
  };
  const record: RunRecord = {
    id,
    workflowId: run.workflowId,
    status,
    startedAt: startedAt.toISOString(),
    endedAt: null,
    durationMs: null,
    ...usageFigures(usage),
    // As the API shows a trigger: a hook's id is its credential and is never shown (run-repository.ts).
    trigger: {
      kind: trigger.kind,
      ...(trigger.apiKeyId ? { apiKeyId: trigger.apiKeyId } : {}),
      ...(trigger.userId ? { userId: trigger.userId } : {}),
      ...(trigger.scheduleId ? { scheduleId: trigger.scheduleId } : {}),
      ...(trigger.conversationId ? { conversationId: trigger.conversationId } : {}),
    },
    deploymentId: run.deploymentId ?? null,
    workflowVersion: run.workflowVersion ?? null,
    rerunOf: run.rerunOf ?? null,
    replayOf: run.replayOf ?? null,
    test: Boolean(run.test),
    budget,
    input,
    output: null,
    error: null,
    queuedAt: queuedAt.toISOString(),
    worker: run.worker ?? null,
    recoveries: 0,
    overhead: null,
  };
  return { row, record };
}

/** The row change that ends a run, and the record it leaves, from the record as the attempt held it. */
export function runEndRow(run: RunRecord, end: RunEnd): { row: RunEndRow; record: RunRecord } {
  if (!(Number.isSafeInteger(end.durationMs) && end.durationMs >= 0))
    throw new InvalidInputError(`durationMs must be a whole number of at least 0, got ${end.durationMs}`, "durationMs");
  const output = end.output === undefined || end.output === null ? null : toJsonValue(end.output, "output");
  const error = end.error === null ? null : (toJsonValue(end.error, "error") as unknown as ErrorInfo);
  const usage = usageToColumns(end.usage);
  const row: RunEndRow = {
    id: run.id,
    status: end.status,
    output,
    error,
    ended_at: end.endedAt.toISOString(),
    duration_ms: end.durationMs,
    overhead: end.overhead ?? null,
    ...usageRow(usage),
  };
  const record: RunRecord = {
    ...run,
    status: end.status,
    output,
    error,
    endedAt: end.endedAt.toISOString(),
    durationMs: end.durationMs,
    ...usageFigures(usage),
    overhead: end.overhead ?? null,
  };
  return { row, record };
}

/** A span as it reads back from storage (span-repository.ts), made from the span as the run reported it. */
export function storedSpanForm(span: SpanRecord): SpanRecord {
  const { attempts: _attempts, usage, durationMs, ...rest } = span;
  const stored: SpanRecord = JSON.parse(JSON.stringify(rest)) as SpanRecord;
  for (const key of [
    "input",
    "output",
    "error",
    "iteration",
    "attempt",
    "name",
    "model",
    "worker",
    "reusedFrom",
    "simulated",
    "price",
  ] as const) {
    if (stored[key] === null) delete stored[key];
  }
  if (durationMs !== undefined) stored.durationMs = Math.round(durationMs);
  if (usage) {
    const columns = usageToColumns(usage);
    const figures = usageFigures(columns);
    stored.usage = {
      tokens: figures.tokens,
      cost: figures.cost,
      ...(figures.unpriced ? { unpriced: true } : {}),
      ...(figures.estimated ? { estimated: true } : {}),
    };
  }
  return stored;
}
