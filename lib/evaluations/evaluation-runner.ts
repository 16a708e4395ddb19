import "server-only";
import type { DatasetCase, RunRecord, SuiteView } from "@/contract";
import { SpendLedger, type BlockBudget, type SpendCap } from "@/executor";
import type { Repositories } from "@/lib/db";
import type { LiveRun, StartRunOptions } from "@/lib/runs/run-service";
import { scoreCase, type RunScoringWorkflow } from "./case-scoring";
import type { EvaluationRepository } from "./evaluation-repository";
import { summarize } from "./evaluation-summary";
import { evaluationsHere } from "./evaluations-here";
import type { ScoringKit } from "./scoring-tools";

/** How the runner starts runs: RunService.start. */
export type StartRuns = (
  workspaceId: string,
  workflowId: string,
  input: Record<string, unknown>,
  options: StartRunOptions,
) => Promise<LiveRun>;

/** One evaluation as the runner executes it. */
export interface EvaluationPlan {
  evaluationId: string;
  workspaceId: string;
  workflowId: string;
  suite: SuiteView;
  cases: DatasetCase[];
  /** `draft`, or the deployment's id. */
  target: string;
  test: boolean;
  concurrency: number;
  maxCost: number | null;
}

export interface EvaluationRunnerDependencies {
  startRun: StartRuns;
  evaluations: EvaluationRepository;
  repositories: Pick<Repositories, "budgets">;
  kit: () => Promise<ScoringKit>;
}

const TRIGGER = { kind: "evaluation" } as const;

/**
 * Executes an evaluation: each case of its dataset as a run of the target (trigger `evaluation`,
 * test mode unless asked otherwise), at most `concurrency` at once, each scored as it ends. With
 * a budget, every run's model calls (and the judges') are held to one ledger for the whole
 * evaluation: the call that could cross it is not made, its run stops, no further case starts,
 * and the cases left are marked `not_run`. Progress is stored as each case ends, so GET
 * /api/evaluations/:id shows it live on any process.
 */
export async function runEvaluation(plan: EvaluationPlan, dependencies: EvaluationRunnerDependencies): Promise<void> {
  evaluationsHere.add(plan.evaluationId);
  try {
    await executeEvaluation(plan, dependencies);
  } finally {
    evaluationsHere.delete(plan.evaluationId);
  }
}

async function executeEvaluation(plan: EvaluationPlan, dependencies: EvaluationRunnerDependencies): Promise<void> {
  const { evaluations } = dependencies;
  const controller = new AbortController();
  // Set by the budget's first refusal (from inside a run's model call): no case starts after it.
  const stop: { reason: string | null } = { reason: null };
  const budget =
    plan.maxCost === null
      ? undefined
      : await evaluationBudget(plan, dependencies, (reason) => {
          stop.reason ??= reason;
        });
  const runOptions: StartRunOptions = {
    target: plan.target === "draft" ? "draft" : { deploymentId: plan.target },
    trigger: TRIGGER,
    ...(plan.test ? { test: true } : {}),
    ...(budget ? { parentBudget: budget } : {}),
  };
  const runScoringWorkflow: RunScoringWorkflow = async (workflowId, input) => {
    const live = await dependencies.startRun(plan.workspaceId, workflowId, input, {
      trigger: TRIGGER,
      test: true,
      ...(budget ? { parentBudget: budget } : {}),
    });
    const record = await live.done;
    return {
      output: record.output,
      cost: record.cost?.total ?? 0,
      failed: record.status === "succeeded" ? null : (record.error?.message ?? record.status),
    };
  };

  const runCase = async (item: DatasetCase): Promise<void> => {
    await evaluations.recordCase(plan.evaluationId, item.id, { status: "running" });
    let record: RunRecord;
    try {
      const live = await dependencies.startRun(plan.workspaceId, plan.workflowId, item.input, runOptions);
      await evaluations.recordCase(plan.evaluationId, item.id, { status: "running", runId: live.runId });
      record = await live.done;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await evaluations.recordCase(plan.evaluationId, item.id, {
        status: "failed",
        score: 0,
        passed: false,
        error: message,
      });
      return;
    }
    const figures = {
      runId: record.id,
      output: record.output ?? null,
      cost: record.cost?.total ?? null,
      tokens: record.tokens.total,
      durationMs: record.durationMs,
    };
    if (record.status !== "succeeded") {
      // Stopped by the evaluation's budget: the case did not run to its end, so it is not judged.
      const refused = record.error?.code === "budget_exceeded" && stop.reason !== null;
      await evaluations.recordCase(plan.evaluationId, item.id, {
        ...figures,
        status: refused ? "not_run" : "failed",
        score: refused ? null : 0,
        passed: refused ? null : false,
        error: record.error?.message ?? `the run ended ${record.status}`,
      });
      return;
    }
    try {
      const scored = await scoreCase(
        plan.suite.scorers,
        {
          input: item.input,
          expected: item.expected ?? undefined,
          output: record.output,
          cost: figures.cost,
          durationMs: record.durationMs,
        },
        {
          kit: dependencies.kit,
          runWorkflow: runScoringWorkflow,
          ...(budget ? { budget } : {}),
          signal: controller.signal,
          evaluationId: plan.evaluationId,
          workflowId: plan.workflowId,
        },
      );
      await evaluations.recordCase(plan.evaluationId, item.id, {
        ...figures,
        status: "scored",
        scores: scored.scores,
        score: scored.score,
        passed: scored.score >= plan.suite.passThreshold - 1e-9,
        scoringCost: scored.scoringCost,
      });
    } catch (error) {
      // Only a budget refusal gets here (scoreCase answers 0 for a scorer that fails otherwise).
      await evaluations.recordCase(plan.evaluationId, item.id, {
        ...figures,
        status: "not_run",
        error: `not scored: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };

  let next = 0;
  const worker = async () => {
    while (stop.reason === null && next < plan.cases.length) {
      const item = plan.cases[next++]!;
      await runCase(item);
    }
  };
  let failure: string | null = null;
  try {
    await Promise.all(Array.from({ length: Math.min(plan.concurrency, plan.cases.length) }, worker));
    for (const item of plan.cases.slice(next))
      await evaluations.recordCase(plan.evaluationId, item.id, {
        status: "not_run",
        error: `not started: ${stop.reason}`,
      });
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    controller.abort();
  }
  const stored = await evaluations.get(plan.workspaceId, plan.evaluationId);
  const reason = failure ?? stop.reason;
  await evaluations.finish(plan.evaluationId, {
    status: failure ? "failed" : stop.reason ? "stopped" : "completed",
    stopReason: reason,
    summary: summarize(stored.cases, plan.suite, { reason }),
  });
}

/**
 * The ledger of the whole evaluation: its own cap, and the workspace's monthly cap, which its runs
 * (held to this ledger instead of their own monthly caps) would otherwise escape.
 */
async function evaluationBudget(
  plan: EvaluationPlan,
  dependencies: EvaluationRunnerDependencies,
  onRefused: (reason: string) => void,
): Promise<BlockBudget> {
  const caps: SpendCap[] = [{ maxCost: plan.maxCost!, source: "evaluation", spentBefore: 0 }];
  const { budgets } = dependencies.repositories;
  const workspaceCap = (await budgets.caps(plan.workspaceId)).find((cap) => cap.scope === "workspace");
  if (workspaceCap)
    caps.push({
      maxCost: workspaceCap.monthlyCap,
      source: "workspace-monthly",
      spentBefore: await budgets.spentThisMonth(plan.workspaceId),
    });
  return new SpendLedger({ caps }).forBlock("Evaluation", (error) => onRefused(error.message));
}
