import "server-only";
import {
  SIMULATION_SOURCES,
  type AppliedPrice,
  type ErrorInfo,
  type SimulationSource,
  type SpanRecord,
} from "@/contract";
import type { PrismaClient, Span } from "@/lib/generated/prisma/client";
import { usageFromColumns } from "./usage-columns";

function isSimulationSource(value: string): value is SimulationSource {
  return (SIMULATION_SOURCES as readonly string[]).includes(value);
}

/** The spans of a run's trace, as read back (they are written by the RunWriter, with the run's events). */
export class SpanRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Closes the spans of a run still marked running (their process stopped before they ended): they
   * become `status` (failed, or cancelled when the run was) with `error` saying why, so a trace never
   * shows work running under a run that is not.
   */
  async closeRunning(
    runId: string,
    error: { code: string; message: string },
    endedAt: Date = new Date(),
    status: "failed" | "cancelled" = "failed",
  ): Promise<number> {
    const { count } = await this.prisma.span.updateMany({
      where: { runId, status: "running" },
      data: { status, error, endedAt },
    });
    return count;
  }

  /** A run's spans in start order. */
  async listByRun(runId: string): Promise<SpanRecord[]> {
    const rows = await this.prisma.span.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
    return rows.map(toSpanRecord);
  }
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
  if (row.attempt !== null) span.attempt = row.attempt;
  if (row.worker !== null) span.worker = row.worker;
  if (row.reusedFrom !== null) span.reusedFrom = row.reusedFrom;
  if (row.simulated !== null && isSimulationSource(row.simulated)) span.simulated = row.simulated;
  if (row.price !== null) span.price = row.price as unknown as AppliedPrice;
  const usage = usageFromColumns(row);
  if (usage) span.usage = usage;
  return span;
}
