import "server-only";
import type { ErrorInfo, SpanRecord } from "@/contract";
import type { PrismaClient, Span } from "@/lib/generated/prisma/client";
import { NotFoundError } from "./errors";
import { isPrismaError, toDate, toNullableJson } from "./json-value";
import { NO_USAGE_COLUMNS, usageFromColumns, usageToColumns } from "./usage-columns";

/** The spans of a run's trace. The engine reports a span when it starts and again when it ends. */
export class SpanRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Inserts or replaces spans by id, in one transaction. When a batch holds the same span twice,
   * the later state wins.
   * @throws NotFoundError when a span's run does not exist
   */
  async upsertMany(spans: readonly SpanRecord[]): Promise<void> {
    const latest = new Map<string, SpanRecord>();
    for (const span of spans) latest.set(span.id, span);
    if (latest.size === 0) return;
    const writes = [...latest.values()].map((span) => {
      const data = toSpanData(span);
      return this.prisma.span.upsert({ where: { id: span.id }, create: { id: span.id, ...data }, update: data });
    });
    try {
      await this.prisma.$transaction(writes);
    } catch (error) {
      if (isPrismaError(error, "P2003")) throw new NotFoundError("Run", [...new Set(spans.map((span) => span.runId))].join(", "));
      throw error;
    }
  }

  /**
   * Closes the spans of a run still marked running (their process stopped before they ended): they
   * become failed with `error`, so a trace never shows work running under a run that is not.
   */
  async closeRunning(runId: string, error: { code: string; message: string }, endedAt: Date = new Date()): Promise<number> {
    const { count } = await this.prisma.span.updateMany({ where: { runId, status: "running" }, data: { status: "failed", error, endedAt } });
    return count;
  }

  /** A run's spans in start order. */
  async listByRun(runId: string): Promise<SpanRecord[]> {
    const rows = await this.prisma.span.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
    return rows.map(toSpanRecord);
  }
}

function toSpanData(span: SpanRecord) {
  return {
    runId: span.runId,
    parentId: span.parentId,
    kind: span.kind,
    blockId: span.blockId,
    blockName: span.blockName,
    blockType: span.blockType,
    name: span.name ?? null,
    model: span.model ?? null,
    status: span.status,
    startedAt: toDate(span.startedAt, "startedAt"),
    endedAt: span.endedAt === undefined ? null : toDate(span.endedAt, "endedAt"),
    durationMs: span.durationMs ?? null,
    input: toNullableJson(span.input, "input"),
    output: toNullableJson(span.output, "output"),
    error: toNullableJson(span.error, "error"),
    iteration: toNullableJson(span.iteration, "iteration"),
    worker: span.worker ?? null,
    ...(span.usage ? usageToColumns(span.usage) : NO_USAGE_COLUMNS),
  };
}

export function toSpanRecord(row: Span): SpanRecord {
  const span: SpanRecord = {
    id: row.id,
    runId: row.runId,
    parentId: row.parentId,
    kind: row.kind as SpanRecord["kind"],
    blockId: row.blockId,
    blockName: row.blockName,
    blockType: row.blockType,
    status: row.status as SpanRecord["status"],
    startedAt: row.startedAt.toISOString(),
  };
  if (row.name !== null) span.name = row.name;
  if (row.model !== null) span.model = row.model;
  if (row.endedAt !== null) span.endedAt = row.endedAt.toISOString();
  if (row.durationMs !== null) span.durationMs = row.durationMs;
  if (row.input !== null) span.input = row.input;
  if (row.output !== null) span.output = row.output;
  if (row.error !== null) span.error = row.error as unknown as ErrorInfo;
  if (row.iteration !== null) span.iteration = row.iteration as number[];
  if (row.worker !== null) span.worker = row.worker;
  const usage = usageFromColumns(row);
  if (usage) span.usage = usage;
  return span;
}
