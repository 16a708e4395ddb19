"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import type { EvaluationCaseView, EvaluationView } from "@/contract";
import { formatDollars, formatDuration } from "@/components/ui/format";
import { runHref } from "@/components/ui/run-href";

type Filter = "all" | "passed" | "failed";
type Order = "position" | "score-asc" | "score-desc";

const clip = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

/** The progress bar of a running evaluation: cases done of total, and spend so far. */
export function EvaluationProgress({ evaluation }: { evaluation: Pick<EvaluationView, "progress" | "status"> }) {
  const { done, total, cost } = evaluation.progress;
  return (
    <div className="flex items-center gap-2 text-xs text-slate-600">
      <progress
        className="h-2 w-40"
        max={total}
        value={done}
        data-testid="evaluation-progress"
        aria-label={`${done} of ${total} cases`}
      />
      <span data-testid="evaluation-progress-text">
        {done} of {total} · {formatDollars(cost)}
      </span>
    </div>
  );
}

/** One evaluation: its summary, and its cases sortable by score and filterable by outcome, each linked to its run's trace. */
export function EvaluationResults({ evaluation, workflowId }: { evaluation: EvaluationView; workflowId: string }) {
  const [filter, setFilter] = useState<Filter>("all");
  const [order, setOrder] = useState<Order>("position");
  const cases = useMemo(() => {
    const shown = evaluation.cases.filter((item) =>
      filter === "all" ? true : filter === "passed" ? item.passed === true : item.passed !== true,
    );
    const score = (item: EvaluationCaseView) => item.score ?? -1;
    if (order === "score-asc") return [...shown].sort((a, b) => score(a) - score(b));
    if (order === "score-desc") return [...shown].sort((a, b) => score(b) - score(a));
    return shown;
  }, [evaluation.cases, filter, order]);
  const summary = evaluation.summary;
  return (
    <div className="space-y-2" data-testid="evaluation-results">
      {evaluation.status === "running" && <EvaluationProgress evaluation={evaluation} />}
      {summary && (
        <div className="rounded border border-slate-200 p-2 text-xs" data-testid="evaluation-summary">
          <div className={summary.passed ? "font-semibold text-green-700" : "font-semibold text-red-700"}>
            {summary.passed ? "Passed" : "Failed"} · pass rate {Math.round(summary.passRate * 100)}% (
            {summary.casesPassed} of {evaluation.progress.total}) · mean score {summary.meanScore.toFixed(2)}
          </div>
          <div className="text-slate-600">
            {Object.entries(summary.scores)
              .map(([name, mean]) => `${name} ${mean.toFixed(2)}`)
              .join(" · ")}
          </div>
          <div className="text-slate-600">
            Cost {formatDollars(summary.cost)} ({formatDollars(summary.costPerCase)} a case
            {summary.scoringCost > 0 ? `, scorers ${formatDollars(summary.scoringCost)}` : ""}) · p50{" "}
            {formatDuration(summary.durationMs.p50)} · p95 {formatDuration(summary.durationMs.p95)}
          </div>
          {summary.failures.map((failure) => (
            <div key={failure} className="text-red-700">
              {failure}
            </div>
          ))}
        </div>
      )}
      <div className="flex gap-2 text-xs">
        <select
          className="input text-xs"
          aria-label="Show"
          data-testid="results-filter"
          value={filter}
          onChange={(event) => setFilter(event.target.value as Filter)}
        >
          <option value="all">All cases</option>
          <option value="passed">Passed</option>
          <option value="failed">Not passed</option>
        </select>
        <select
          className="input text-xs"
          aria-label="Order"
          data-testid="results-order"
          value={order}
          onChange={(event) => setOrder(event.target.value as Order)}
        >
          <option value="position">Dataset order</option>
          <option value="score-asc">Lowest score first</option>
          <option value="score-desc">Highest score first</option>
        </select>
      </div>
      <table className="w-full text-xs" data-testid="results-table">
        <thead>
          <tr className="text-left text-slate-500">
            <th className="px-1">Input</th>
            <th className="px-1">Output</th>
            <th className="px-1">Score</th>
            <th className="px-1">Cost</th>
            <th className="px-1">Time</th>
            <th className="px-1">Trace</th>
          </tr>
        </thead>
        <tbody>
          {cases.map((item) => (
            <tr
              key={item.caseId}
              className="border-t border-slate-100 align-top"
              data-testid="result-row"
              data-passed={item.passed === true}
            >
              <td className="px-1 py-1">{clip(item.input)}</td>
              <td className="px-1 py-1">{item.status === "not_run" ? <em>not run</em> : clip(item.output)}</td>
              <td
                className="px-1 py-1"
                title={item.scores.map((score) => `${score.scorer}: ${score.score} (${score.reason})`).join("\n")}
              >
                <span className={item.passed ? "text-green-700" : "text-red-700"}>
                  {item.score === null ? "–" : item.score.toFixed(2)}
                </span>
                {item.error && <span className="block text-slate-500">{clip(item.error)}</span>}
              </td>
              <td className="px-1 py-1">{item.cost === null ? "–" : formatDollars(item.cost)}</td>
              <td className="px-1 py-1">{item.durationMs === null ? "–" : formatDuration(item.durationMs)}</td>
              <td className="px-1 py-1">
                {item.runId && (
                  <Link className="text-indigo-700 hover:underline" href={runHref(workflowId, item.runId)}>
                    trace
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
