import "server-only";
import {
  EVALUATION_CONCURRENCY_DEFAULT,
  type EvaluationComparison,
  type EvaluationInfo,
  type EvaluationView,
  type StartEvaluationRequest,
} from "@/contract";
import { TrellisError } from "@/executor";
import type { DatasetRepository } from "@/lib/datasets";
import { NotFoundError, type Repositories } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { processLogger } from "@/lib/observability";
import { compareEvaluations } from "./evaluation-compare";
import type { EvaluationRepository } from "./evaluation-repository";
import { runEvaluation, type StartRuns } from "./evaluation-runner";
import { summarize } from "./evaluation-summary";
import { evaluationsHere } from "./evaluations-here";
import { checkScorers } from "./scorer-checks";
import type { ScoringTools } from "./scoring-tools";
import type { SuiteRepository } from "./suite-repository";

type CheckedStart = Required<Omit<StartEvaluationRequest, "budget">> & Pick<StartEvaluationRequest, "budget">;

export interface EvaluationServiceDependencies {
  evaluations: EvaluationRepository;
  suites: SuiteRepository;
  datasets: DatasetRepository;
  repositories: Pick<Repositories, "workflows" | "deployments" | "budgets">;
  startRun: StartRuns;
  scoringTools: ScoringTools;
  /** This process's id in the workers table (RunService.workerId): stored with each evaluation it executes. */
  workerId: () => string;
}

/** Why an evaluation stored `running` was ended when read. */
const STRANDED = "the process executing it stopped before it ended; start it again";

/** A started evaluation: its id, and its end (every case run and scored, the summary stored). */
export interface StartedEvaluation {
  evaluationId: string;
  done: Promise<void>;
}

function logEvaluationError(evaluationId: string, error: unknown): void {
  processLogger().error(`evaluation ${evaluationId} failed: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Evaluations: started for the draft or a deployment over a suite, executed in this process
 * (evaluation-runner.ts), read with their progress, and compared.
 */
export function createEvaluationService(dependencies: EvaluationServiceDependencies) {
  const { evaluations, suites, datasets, repositories } = dependencies;
  /**
   * Checks everything that could fail on every case before anything runs (the suite, the target,
   * the scorers' models and keys, an empty dataset), stores the evaluation with its cases and
   * starts it. @throws NotFoundError, RequestError 400
   */
  async function start(
    workspaceId: string,
    workflowId: string,
    request: CheckedStart,
    userId: string | null,
  ): Promise<StartedEvaluation> {
    const suite = await suites.get(workspaceId, request.suiteId);
    if (suite.workflowId !== workflowId) throw new NotFoundError("Suite", request.suiteId);
    const workflowVersion =
      request.version === "draft"
        ? (await repositories.workflows.get(workspaceId, workflowId)).version
        : (await repositories.deployments.get(workspaceId, workflowId, request.version)).workflowVersion;
    const kit = () => dependencies.scoringTools(workspaceId);
    await checkScorers(suite.scorers, kit, async (id) => {
      try {
        await repositories.workflows.get(workspaceId, id);
        return true;
      } catch {
        return false;
      }
    });
    const dataset = await datasets.get(workspaceId, suite.datasetId);
    if (dataset.cases.length === 0)
      throw new RequestError("invalid_request", `Dataset "${dataset.name}" has no cases: add some before evaluating.`, [
        { path: "suiteId", message: "its dataset has no cases" },
      ]);
    const maxCost = request.budget?.maxCost ?? null;
    const evaluationId = await evaluations.create(workspaceId, {
      workflowId,
      suiteId: suite.id,
      datasetVersion: dataset.version,
      target: request.version,
      workflowVersion,
      test: request.test,
      concurrency: request.concurrency,
      maxCost,
      createdById: userId,
      worker: await evaluations.registeredWorker(dependencies.workerId()),
      cases: dataset.cases.map((item, position) => ({
        caseId: item.id,
        position,
        input: item.input,
        expected: item.expected,
      })),
    });
    const done = runEvaluation(
      {
        evaluationId,
        workspaceId,
        workflowId,
        suite,
        cases: dataset.cases,
        target: request.version,
        test: request.test,
        concurrency: request.concurrency,
        maxCost,
      },
      { startRun: dependencies.startRun, evaluations, repositories, kit },
    ).catch((error: unknown) => logEvaluationError(evaluationId, error));
    return { evaluationId, done };
  }

  /** Ends the evaluations among `ids` whose process stopped half-way, so none stays `running` for ever. */
  async function settleStranded(workspaceId: string, ids: readonly string[]): Promise<boolean> {
    if (ids.length === 0) return false;
    const stranded = await evaluations.stranded(workspaceId, ids, {
      workerId: dependencies.workerId(),
      executing: evaluationsHere,
    });
    for (const id of stranded) {
      const { suiteId } = await evaluations.get(workspaceId, id);
      const suite = await suites.get(workspaceId, suiteId);
      await evaluations.strand(workspaceId, id, (view) => summarize(view.cases, suite, { reason: STRANDED }), STRANDED);
    }
    return stranded.length > 0;
  }

  return {
    start,
    /**
     * A schedule's fire: the active deployment over the suite, in test mode. Answers once it has
     * started. @throws `not_deployed` when the workflow has no deployment
     */
    async startScheduled(workspaceId: string, workflowId: string, suiteId: string): Promise<{ evaluationId: string }> {
      const active = await repositories.deployments.active(workspaceId, workflowId);
      if (!active)
        throw new TrellisError(
          "not_deployed",
          "This workflow has no deployment yet: a scheduled evaluation evaluates the active one.",
        );
      const { evaluationId } = await start(
        workspaceId,
        workflowId,
        { suiteId, version: active.id, test: true, concurrency: EVALUATION_CONCURRENCY_DEFAULT, wait: false },
        null,
      );
      return { evaluationId };
    },
    async get(workspaceId: string, id: string): Promise<EvaluationView> {
      const view = await evaluations.get(workspaceId, id);
      if (view.status !== "running" || !(await settleStranded(workspaceId, [id]))) return view;
      return evaluations.get(workspaceId, id);
    },
    async list(workspaceId: string, workflowId: string, suiteId?: string): Promise<EvaluationInfo[]> {
      await repositories.workflows.get(workspaceId, workflowId);
      const listed = await evaluations.list(workspaceId, workflowId, suiteId);
      const running = listed.filter((evaluation) => evaluation.status === "running").map((evaluation) => evaluation.id);
      return (await settleStranded(workspaceId, running)) ? evaluations.list(workspaceId, workflowId, suiteId) : listed;
    },
    /** `id` before, `otherId` after. @throws 400 for evaluations of different suites */
    async compare(workspaceId: string, id: string, otherId: string): Promise<EvaluationComparison> {
      const [before, after] = await Promise.all([
        evaluations.get(workspaceId, id),
        evaluations.get(workspaceId, otherId),
      ]);
      if (before.suiteId !== after.suiteId)
        throw new RequestError(
          "invalid_request",
          "Only two evaluations of one suite can be compared: these ran different suites.",
          [{ path: "otherId", message: "is an evaluation of another suite" }],
        );
      return compareEvaluations(before, after);
    },
  };
}

export type EvaluationService = ReturnType<typeof createEvaluationService>;
