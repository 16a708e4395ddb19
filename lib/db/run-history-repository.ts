import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/** One execution of a block in a past run: what its model calls used in all. */
export interface BlockExecutionRecord {
  blockId: string;
  prompt: number;
  completion: number;
  /** Its model calls (child spans of kind `model`): a tool loop makes several. */
  modelCalls: number;
}

/** A past run as the estimate learns from it: its input and every block execution that spent tokens or ran. */
export interface PastRun {
  runId: string;
  input: Record<string, unknown>;
  executions: BlockExecutionRecord[];
}

/**
 * Recent runs of a workflow, for the estimate's expected case. Only succeeded runs that really
 * called their models count: a test run (samples and recorded answers), a replay (answers from the recording), an evaluation's run (its dataset's inputs), a run from a block (its
 * upstream results reused) or a skipped or simulated span would teach the estimate that a block
 * costs nothing.
 */
export class RunHistoryRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async recentRuns(workspaceId: string, workflowId: string, limit: number): Promise<PastRun[]> {
    const runs = await this.prisma.run.findMany({
      where: {
        workspaceId,
        workflowId,
        status: "succeeded",
        test: false,
        // An evaluation's runs follow its dataset, not the workflow's traffic.
        triggerKind: { notIn: ["replay", "evaluation", "copilot"] },
        rerunOfRunId: null,
      },
      orderBy: [{ queuedAt: "desc" }, { id: "desc" }],
      take: limit,
      select: { id: true, input: true },
    });
    if (runs.length === 0) return [];
    const spans = await this.prisma.span.findMany({
      where: { runId: { in: runs.map((run) => run.id) }, kind: { in: ["block", "model"] }, reusedFrom: null },
      select: {
        id: true,
        runId: true,
        parentId: true,
        kind: true,
        blockId: true,
        status: true,
        promptTokens: true,
        completionTokens: true,
        simulated: true,
      },
    });
    const callsByBlockSpan = new Map<string, number>();
    for (const span of spans)
      if (span.kind === "model" && span.parentId)
        callsByBlockSpan.set(span.parentId, (callsByBlockSpan.get(span.parentId) ?? 0) + 1);
    const executionsByRun = new Map<string, BlockExecutionRecord[]>();
    for (const span of spans) {
      if (span.kind !== "block" || span.status !== "succeeded" || span.simulated) continue;
      const list = executionsByRun.get(span.runId) ?? [];
      list.push({
        blockId: span.blockId,
        prompt: span.promptTokens ?? 0,
        completion: span.completionTokens ?? 0,
        modelCalls: callsByBlockSpan.get(span.id) ?? 0,
      });
      executionsByRun.set(span.runId, list);
    }
    return runs.map((run) => ({
      runId: run.id,
      input: isRecord(run.input) ? run.input : {},
      executions: executionsByRun.get(run.id) ?? [],
    }));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
