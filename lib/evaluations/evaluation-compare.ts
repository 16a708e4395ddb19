import "server-only";
import type { ComparedCase, EvaluationCaseView, EvaluationComparison, EvaluationView } from "@/contract";
import { diffOutput } from "@/lib/runs/run-diff";
import { DiffBudget } from "@/lib/runs/text-diff";
import { sumDollars } from "./evaluation-summary";
import { bootstrapInterval, signTest } from "./paired-statistics";

/** A change smaller than this is no change (scores are means of fractions). */
const EPSILON = 1e-9;

const ORDER: Record<ComparedCase["change"], number> = { regressed: 0, improved: 1, unchanged: 2, added: 3, removed: 4 };

function side(item: EvaluationCaseView | undefined) {
  return item
    ? {
        runId: item.runId,
        status: item.status,
        score: item.score,
        passed: item.passed,
        output: item.output,
        cost: item.cost,
        durationMs: item.durationMs,
      }
    : null;
}

const difference = (before: number | null | undefined, after: number | null | undefined) =>
  before === null || before === undefined || after === null || after === undefined ? null : after - before;

/**
 * Two evaluations of one suite case by case (matched by case id, which stays the same across a
 * case's edits): the score change of each case that was scored in both, `added` / `removed` for a
 * case scored in only one, the output diff (as the run diff shows a block's output), cost and
 * duration changes; regressions first, the largest drop first.
 */
export function compareEvaluations(before: EvaluationView, after: EvaluationView): EvaluationComparison {
  const earlier = new Map(before.cases.map((item) => [item.caseId, item]));
  const later = new Map(after.cases.map((item) => [item.caseId, item]));
  // One budget for every case's text diff, as a run diff has for its blocks: a large dataset stays bounded.
  const budget = new DiffBudget();
  const ids = [...new Set([...after.cases.map((item) => item.caseId), ...before.cases.map((item) => item.caseId)])];
  const cases: ComparedCase[] = ids.map((caseId) => {
    const from = earlier.get(caseId);
    const to = later.get(caseId);
    const scored = (item: EvaluationCaseView | undefined) => item !== undefined && item.score !== null;
    const delta = scored(from) && scored(to) ? to!.score! - from!.score! : null;
    const change: ComparedCase["change"] =
      delta === null
        ? scored(to)
          ? "added"
          : "removed"
        : delta < -EPSILON
          ? "regressed"
          : delta > EPSILON
            ? "improved"
            : "unchanged";
    return {
      caseId,
      input: (to ?? from)!.input,
      change,
      before: side(from),
      after: side(to),
      delta,
      costDelta: difference(from?.cost, to?.cost),
      durationDelta: difference(from?.durationMs, to?.durationMs),
      outputDiff: from && to ? diffOutput(from.output, to.output, budget) : null,
    };
  });
  cases.sort(
    (a, b) =>
      ORDER[a.change] - ORDER[b.change] ||
      (a.change === "improved" ? (b.delta ?? 0) - (a.delta ?? 0) : (a.delta ?? 0) - (b.delta ?? 0)),
  );
  const count = (change: ComparedCase["change"]) => cases.filter((item) => item.change === change).length;
  const improved = count("improved");
  const regressed = count("regressed");
  const deltas = cases.flatMap((item) => (item.delta === null ? [] : [item.delta]));
  const costOf = (evaluation: EvaluationView) =>
    evaluation.summary?.cost ?? sumDollars(evaluation.cases.map((item) => item.cost));
  const costFrom = costOf(before);
  const costTo = costOf(after);
  return {
    evaluationId: before.id,
    otherEvaluationId: after.id,
    improved,
    regressed,
    unchanged: count("unchanged"),
    meanDelta: deltas.length === 0 ? 0 : deltas.reduce((a, b) => a + b, 0) / deltas.length,
    signTest: signTest(improved, regressed),
    bootstrap: bootstrapInterval(deltas),
    cost: { from: costFrom, to: costTo, delta: Number((costTo - costFrom).toFixed(10)) },
    cases,
  };
}
