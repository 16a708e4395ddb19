import type { EvaluationCaseView, EvaluationSummary, SuiteGate } from "@/contract";

/** The percentile `p` (0..100) of sorted values by nearest rank; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Dollars summed and kept to the 10 decimal places they are stored with. */
export function sumDollars(values: readonly (number | null)[]): number {
  return Number(values.reduce<number>((sum, value) => sum + (value ?? 0), 0).toFixed(10));
}

const percent = (value: number) => `${(value * 100).toFixed(1).replace(/\.0$/, "")}%`;

/**
 * What an evaluation found: pass rate over every case (a case not run does not pass), scores and
 * durations over the cases that ran, cost as the sum of its runs' costs, and the verdict against
 * the suite's thresholds: `gate.minPassRate` (every case must pass when the suite names none) and
 * `gate.maxCostPerCase`. Regressions against the active deployment are the deploy gate's to judge,
 * since they need a second evaluation.
 */
export function summarize(
  cases: readonly EvaluationCaseView[],
  suite: { gate: SuiteGate | null },
  stop: { reason: string | null } = { reason: null },
): EvaluationSummary {
  const ran = cases.filter((item) => item.status === "scored" || item.status === "failed");
  const passed = cases.filter((item) => item.passed === true).length;
  const notRun = cases.filter(
    (item) => item.status === "not_run" || item.status === "pending" || item.status === "running",
  ).length;
  const scorers = new Map<string, number[]>();
  for (const item of ran)
    for (const score of item.scores) scorers.set(score.scorer, [...(scorers.get(score.scorer) ?? []), score.score]);
  const durations = ran.flatMap((item) => (item.durationMs === null ? [] : [item.durationMs])).sort((a, b) => a - b);
  const cost = sumDollars(cases.map((item) => item.cost));
  const passRate = cases.length === 0 ? 0 : passed / cases.length;
  const costPerCase = ran.length === 0 ? 0 : Number((cost / ran.length).toFixed(10));
  const failures: string[] = [];
  const minPassRate = suite.gate?.minPassRate ?? 1;
  if (passRate + 1e-12 < minPassRate)
    failures.push(
      `pass rate ${percent(passRate)} (${passed} of ${cases.length} cases) is below the required ${percent(minPassRate)}`,
    );
  const maxCostPerCase = suite.gate?.maxCostPerCase;
  if (maxCostPerCase !== undefined && costPerCase > maxCostPerCase + 1e-12)
    failures.push(`cost per case $${costPerCase} is over the limit of $${maxCostPerCase}`);
  if (stop.reason !== null)
    failures.push(`the evaluation stopped before ${notRun} of ${cases.length} cases: ${stop.reason}`);
  return {
    passRate,
    casesPassed: passed,
    casesFailed: cases.filter((item) => item.status === "failed").length,
    casesNotRun: notRun,
    meanScore: ran.length === 0 ? 0 : ran.reduce((sum, item) => sum + (item.score ?? 0), 0) / ran.length,
    scores: Object.fromEntries(
      [...scorers].map(([name, values]) => [name, values.reduce((a, b) => a + b, 0) / values.length]),
    ),
    cost,
    costPerCase,
    scoringCost: sumDollars(cases.map((item) => item.scoringCost)),
    durationMs: { p50: percentile(durations, 50), p95: percentile(durations, 95) },
    passed: failures.length === 0,
    failures,
  };
}
