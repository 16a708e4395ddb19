import { describe, expect, it } from "vitest";
import type { EvaluationCaseView } from "@/contract";
import { percentile, summarize } from "./evaluation-summary";

const item = (fields: Partial<EvaluationCaseView>): EvaluationCaseView => ({
  caseId: "c",
  position: 0,
  status: "scored",
  runId: "r",
  input: {},
  expected: null,
  output: null,
  scores: [],
  score: 1,
  passed: true,
  cost: 0.1,
  scoringCost: null,
  tokens: 10,
  durationMs: 100,
  error: null,
  ...fields,
});

describe("summary", () => {
  it("counts a case not run as not passing, and cost as the sum of the runs", () => {
    const summary = summarize(
      [
        item({ score: 1, scores: [{ scorer: "exact", score: 1, reason: "", weight: 1 }], cost: 0.1, durationMs: 100 }),
        item({
          score: 0,
          passed: false,
          scores: [{ scorer: "exact", score: 0, reason: "", weight: 1 }],
          cost: 0.2,
          durationMs: 300,
        }),
        item({ status: "not_run", score: null, passed: null, cost: null, durationMs: null }),
      ],
      { gate: { minPassRate: 0.5, maxCostPerCase: 0.1 } },
      { reason: "budget" },
    );
    expect(summary).toMatchObject({ casesPassed: 1, casesNotRun: 1, meanScore: 0.5, cost: 0.3, costPerCase: 0.15 });
    expect(summary.passRate).toBeCloseTo(1 / 3);
    expect(summary.scores).toEqual({ exact: 0.5 });
    expect(summary.durationMs).toEqual({ p50: 100, p95: 300 });
    expect(summary.passed).toBe(false);
    expect(summary.failures).toEqual([
      "pass rate 33.3% (1 of 3 cases) is below the required 50%",
      "cost per case $0.15 is over the limit of $0.1",
      "the evaluation stopped before 1 of 3 cases: budget",
    ]);
  });

  it("takes percentiles by nearest rank", () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 95)).toBe(4);
  });
});
