"use client";

import type { RunBudget } from "@/contract";
import { formatDollars } from "@/components/ui/format";

/**
 * Spending against the run's cap: "$0.0123 of $0.05" with a bar. Spending is the sum of the
 * blocks that have finished, as the run's totals are; the server stops the run before a model
 * call that could cross the cap, so the bar never passes its end.
 */
export function RunBudgetMeter({ budget, spent }: { budget: RunBudget; spent: number }) {
  const share = budget.maxCost > 0 ? Math.min(1, spent / budget.maxCost) : 1;
  const whose = budget.source === "request" ? "this run's budget" : "the workflow's budget per run";
  const asked =
    budget.requested !== undefined
      ? `; the run asked for ${formatDollars(budget.requested)}, above the workflow's, so the workflow's applies`
      : "";
  return (
    <span
      className="flex items-center gap-1.5"
      data-testid="run-budget"
      title={`Spent so far against ${whose}${asked}`}
    >
      <span data-testid="run-budget-text">
        {formatDollars(spent)} of {formatDollars(budget.maxCost)}
      </span>
      <span
        className="relative h-1.5 w-16 overflow-hidden rounded bg-slate-200"
        role="meter"
        aria-label="Budget spent"
        aria-valuemin={0}
        aria-valuemax={budget.maxCost}
        aria-valuenow={spent}
      >
        <span
          className={`absolute inset-y-0 left-0 ${share >= 0.9 ? "bg-red-500" : share >= 0.6 ? "bg-amber-500" : "bg-emerald-500"}`}
          style={{ width: `${share * 100}%` }}
        />
      </span>
    </span>
  );
}
