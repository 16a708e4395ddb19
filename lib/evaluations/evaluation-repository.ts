import "server-only";
import {
  evaluationSummarySchema,
  scoreSchema,
  type EvaluationCaseStatus,
  type EvaluationCaseView,
  type EvaluationInfo,
  type EvaluationStatus,
  type EvaluationSummary,
  type EvaluationView,
  type Score,
} from "@/contract";
import { NotFoundError, type PrismaClient } from "@/lib/db";
import {
  Prisma,
  type Evaluation as EvaluationRow,
  type EvaluationCase as CaseRow,
} from "@/lib/generated/prisma/client";

/** An evaluation to store, with its cases (all `pending`). */
export interface NewEvaluation {
  workflowId: string;
  suiteId: string;
  datasetVersion: number;
  target: string;
  workflowVersion: number;
  test: boolean;
  concurrency: number;
  maxCost: number | null;
  createdById: string | null;
  /** The process executing it, when it is in the workers table (a process that executes no runs is not). */
  worker: string | null;
  cases: { caseId: string; position: number; input: Record<string, unknown>; expected: unknown }[];
}

/** What a case's end records. */
export interface CaseResult {
  status: EvaluationCaseStatus;
  runId?: string | null;
  output?: unknown;
  scores?: Score[];
  score?: number | null;
  passed?: boolean | null;
  cost?: number | null;
  scoringCost?: number | null;
  tokens?: number | null;
  durationMs?: number | null;
  error?: string | null;
}

const dollars = (value: Prisma.Decimal | null): number | null => (value === null ? null : Number(value));

function caseView(row: CaseRow): EvaluationCaseView {
  return {
    caseId: row.caseId,
    position: row.position,
    status: row.status as EvaluationCaseStatus,
    runId: row.runId,
    input: (row.input ?? {}) as Record<string, unknown>,
    expected: row.expected ?? null,
    output: row.output ?? null,
    scores: scoreSchema.array().parse(row.scores ?? []),
    score: row.score,
    passed: row.passed,
    cost: dollars(row.costTotal),
    scoringCost: dollars(row.scoringCost),
    tokens: row.totalTokens,
    durationMs: row.durationMs,
    error: row.error,
  };
}

function info(row: EvaluationRow, spent: number): EvaluationInfo {
  return {
    id: row.id,
    workflowId: row.workflowId,
    suiteId: row.suiteId,
    datasetVersion: row.datasetVersion,
    version: row.target,
    workflowVersion: row.workflowVersion,
    test: row.test,
    status: row.status as EvaluationStatus,
    stopReason: row.stopReason,
    progress: { done: row.doneCount, total: row.caseCount, cost: spent },
    budget: row.maxCost === null ? null : { maxCost: Number(row.maxCost) },
    summary: row.summary === null ? null : evaluationSummarySchema.parse(row.summary),
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

const decimal = (value: number | null | undefined) =>
  value === null || value === undefined ? value : new Prisma.Decimal(value.toFixed(10));

/** Evaluations of one workspace, with their cases. */
export class EvaluationRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(workspaceId: string, evaluation: NewEvaluation): Promise<string> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.evaluation.create({
        data: {
          workspaceId,
          workflowId: evaluation.workflowId,
          suiteId: evaluation.suiteId,
          datasetVersion: evaluation.datasetVersion,
          target: evaluation.target,
          workflowVersion: evaluation.workflowVersion,
          test: evaluation.test,
          concurrency: evaluation.concurrency,
          maxCost: decimal(evaluation.maxCost) ?? null,
          status: "running",
          caseCount: evaluation.cases.length,
          createdById: evaluation.createdById,
          worker: evaluation.worker,
        },
      });
      await tx.evaluationCase.createMany({
        data: evaluation.cases.map((item) => ({
          evaluationId: row.id,
          caseId: item.caseId,
          position: item.position,
          status: "pending",
          input: item.input as Prisma.InputJsonObject,
          ...(item.expected === null || item.expected === undefined
            ? {}
            : { expected: item.expected as Prisma.InputJsonValue }),
        })),
      });
      return row.id;
    });
  }

  /** Records where a case is; an ended case (scored, failed, not run) also counts as done. */
  async recordCase(evaluationId: string, caseId: string, result: CaseResult): Promise<void> {
    const ended = result.status !== "pending" && result.status !== "running";
    await this.prisma.$transaction([
      this.prisma.evaluationCase.update({
        where: { evaluationId_caseId: { evaluationId, caseId } },
        data: {
          status: result.status,
          ...(result.runId !== undefined ? { runId: result.runId } : {}),
          ...(result.output !== undefined
            ? { output: result.output === null ? Prisma.DbNull : (result.output as Prisma.InputJsonValue) }
            : {}),
          ...(result.scores !== undefined ? { scores: result.scores as unknown as Prisma.InputJsonArray } : {}),
          ...(result.score !== undefined ? { score: result.score } : {}),
          ...(result.passed !== undefined ? { passed: result.passed } : {}),
          ...(result.cost !== undefined ? { costTotal: decimal(result.cost) } : {}),
          ...(result.scoringCost !== undefined ? { scoringCost: decimal(result.scoringCost) } : {}),
          ...(result.tokens !== undefined ? { totalTokens: result.tokens } : {}),
          ...(result.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
          ...(result.error !== undefined ? { error: result.error } : {}),
        },
      }),
      ...(ended
        ? [this.prisma.evaluation.update({ where: { id: evaluationId }, data: { doneCount: { increment: 1 } } })]
        : []),
    ]);
  }

  async finish(
    evaluationId: string,
    end: { status: EvaluationStatus; stopReason: string | null; summary: EvaluationSummary },
  ): Promise<void> {
    await this.prisma.evaluation.update({
      where: { id: evaluationId },
      data: {
        status: end.status,
        stopReason: end.stopReason,
        summary: end.summary as unknown as Prisma.InputJsonObject,
        passed: end.summary.passed,
        endedAt: new Date(),
      },
    });
  }

  /**
   * The evaluations of the workspace stored `running` by a process that is no longer in the workers
   * table (or by this process, when it is not executing them any more: it restarted), oldest first.
   */
  async stranded(
    workspaceId: string,
    ids: readonly string[],
    here: { workerId: string; executing: ReadonlySet<string> },
  ): Promise<string[]> {
    const rows = await this.prisma.evaluation.findMany({
      where: { workspaceId, id: { in: [...ids] }, status: "running" },
      select: { id: true, worker: true },
    });
    const workers = rows.flatMap((row) => (row.worker !== null && row.worker !== here.workerId ? [row.worker] : []));
    const alive = new Set(
      (await this.prisma.worker.findMany({ where: { id: { in: workers } }, select: { id: true } })).map(
        (worker) => worker.id,
      ),
    );
    // Without a worker (started by a process that executes no runs, so is in no table) nothing tells: it is left as it is.
    return rows
      .filter((row) =>
        row.worker === null
          ? false
          : row.worker === here.workerId
            ? !here.executing.has(row.id)
            : !alive.has(row.worker),
      )
      .map((row) => row.id);
  }

  /** `workerId` when that process is in the workers table (it executes runs), else null. */
  async registeredWorker(workerId: string): Promise<string | null> {
    return (await this.prisma.worker.count({ where: { id: workerId } })) > 0 ? workerId : null;
  }

  /** Ends a stranded evaluation: its unfinished cases `not_run`, and the summary of what it finished. */
  async strand(
    workspaceId: string,
    id: string,
    summarize: (view: EvaluationView) => EvaluationSummary,
    reason: string,
  ): Promise<void> {
    await this.prisma.evaluationCase.updateMany({
      where: { evaluationId: id, status: { in: ["pending", "running"] } },
      data: { status: "not_run", error: reason },
    });
    const view = await this.get(workspaceId, id);
    await this.prisma.evaluation.updateMany({
      where: { id, status: "running" },
      data: {
        status: "failed",
        stopReason: reason,
        summary: summarize(view) as unknown as Prisma.InputJsonObject,
        passed: false,
        endedAt: new Date(),
      },
    });
  }

  /** @throws NotFoundError */
  async get(workspaceId: string, id: string): Promise<EvaluationView> {
    const row = await this.prisma.evaluation.findFirst({ where: { id, workspaceId } });
    if (!row) throw new NotFoundError("Evaluation", id);
    const cases = (
      await this.prisma.evaluationCase.findMany({ where: { evaluationId: id }, orderBy: { position: "asc" } })
    ).map(caseView);
    const spent = cases.reduce((sum, item) => sum + (item.cost ?? 0), 0);
    return { ...info(row, spent), cases };
  }

  /** The workflow's latest evaluations (of one suite, when named), newest first. */
  async list(workspaceId: string, workflowId: string, suiteId?: string, limit = 100): Promise<EvaluationInfo[]> {
    const rows = await this.prisma.evaluation.findMany({
      where: { workspaceId, workflowId, ...(suiteId ? { suiteId } : {}) },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
    });
    const sums = await this.prisma.evaluationCase.groupBy({
      by: ["evaluationId"],
      where: { evaluationId: { in: rows.map((row) => row.id) } },
      _sum: { costTotal: true },
    });
    const spentOf = new Map(sums.map((sum) => [sum.evaluationId, dollars(sum._sum.costTotal) ?? 0]));
    return rows.map((row) => info(row, spentOf.get(row.id) ?? 0));
  }

  /** The newest evaluation of a suite that ended on exactly this version of a target, if any. */
  async latestEnded(
    workspaceId: string,
    suiteId: string,
    target: string,
    workflowVersion: number,
  ): Promise<EvaluationView | null> {
    const row = await this.prisma.evaluation.findFirst({
      where: { workspaceId, suiteId, target, workflowVersion, status: "completed" },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    return row ? this.get(workspaceId, row.id) : null;
  }
}
