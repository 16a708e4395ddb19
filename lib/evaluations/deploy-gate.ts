import "server-only";
import type { EvaluationView, StoredWorkflow, SuiteView } from "@/contract";
import type { Repositories } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import { compareEvaluations } from "./evaluation-compare";
import type { EvaluationRepository } from "./evaluation-repository";
import type { EvaluationService } from "./evaluation-service";
import type { SuiteRepository } from "./suite-repository";

/** What the gate decided about a draft. */
export interface GateVerdict {
  evaluationId: string;
  suite: SuiteView;
  /** Each threshold missed, naming it and the figure; empty when the draft may be deployed. */
  failures: string[];
}

export interface DeployGateDependencies {
  suites: SuiteRepository;
  evaluations: EvaluationRepository;
  service: EvaluationService;
  repositories: Pick<Repositories, "deployments">;
}

/**
 * The deploy gate (docs/CONTRACT.md section 13): a workflow whose `settings.requireEvaluation`
 * names a suite is deployed only when the suite's evaluation of exactly this draft (a finished one
 * is reused, else one runs now) meets its thresholds: the pass rate, the cost per case, and at
 * most `maxRegressions` cases scoring lower than on the active deployment (evaluated the same way).
 */
export function createDeployGate(dependencies: DeployGateDependencies) {
  const evaluationOf = async (
    workspaceId: string,
    workflowId: string,
    suite: SuiteView,
    version: string,
    workflowVersion: number,
    userId: string | null,
  ): Promise<EvaluationView> => {
    const finished = await dependencies.evaluations.latestEnded(workspaceId, suite.id, version, workflowVersion);
    if (finished) return finished;
    const started = await dependencies.service.start(
      workspaceId,
      workflowId,
      { suiteId: suite.id, version, test: true, concurrency: 4, wait: true },
      userId,
    );
    await started.done;
    return dependencies.evaluations.get(workspaceId, started.evaluationId);
  };
  return {
    /** null when the workflow requires no evaluation. */
    async judge(workspaceId: string, workflow: StoredWorkflow, userId: string | null): Promise<GateVerdict | null> {
      const suiteId = workflow.settings?.requireEvaluation;
      if (!suiteId) return null;
      const suite = await dependencies.suites.get(workspaceId, suiteId).catch(() => {
        throw new RequestError(
          "invalid_workflow",
          `Cannot deploy: settings.requireEvaluation names suite "${suiteId}", which this workspace does not have.`,
          [{ path: "settings.requireEvaluation", message: "names no suite of this workspace" }],
        );
      });
      const draft = await evaluationOf(workspaceId, workflow.id, suite, "draft", workflow.version, userId);
      const failures = [...(draft.summary?.failures ?? ["the evaluation has no summary"])];
      const maxRegressions = suite.gate?.maxRegressions;
      if (maxRegressions !== undefined) {
        const active = await dependencies.repositories.deployments.active(workspaceId, workflow.id);
        if (active) {
          const baseline = await evaluationOf(
            workspaceId,
            workflow.id,
            suite,
            active.id,
            active.workflowVersion,
            userId,
          );
          const { regressed } = compareEvaluations(baseline, draft);
          if (regressed > maxRegressions)
            failures.push(
              `${regressed} ${regressed === 1 ? "case regresses" : "cases regress"} against the active deployment #${active.number} (at most ${maxRegressions} allowed)`,
            );
        }
      }
      return { evaluationId: draft.id, suite, failures };
    },
  };
}

export type DeployGate = ReturnType<typeof createDeployGate>;

/** The refusal of a draft the gate failed. */
export function evaluationFailed(verdict: GateVerdict): RequestError {
  return new RequestError(
    "evaluation_failed",
    `Cannot deploy: the draft failed suite "${verdict.suite.name}" (evaluation ${verdict.evaluationId}): ${verdict.failures.join("; ")}. An admin may deploy anyway with an override note.`,
    verdict.failures.map((failure) => ({ path: "evaluation", message: failure })),
  );
}
