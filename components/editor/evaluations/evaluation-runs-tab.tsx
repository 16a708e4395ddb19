"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, type EvaluationInfo } from "@/contract";
import { formatDateTime } from "@/components/ui/date-time";
import { EvaluationProgress, EvaluationResults } from "./evaluation-results";
import { useEvaluation, useEvaluationList, useStartEvaluation, useSuites } from "./use-evaluations";

// The chart library is loaded with this tab only, and in the browser only (it measures its box).
const EvaluationChart = dynamic(() => import("./evaluation-chart"), {
  ssr: false,
  loading: () => <div className="h-48 rounded border border-slate-200" aria-hidden />,
});

function versionLabel(version: string, deployments: { id: string; number: number }[] | undefined): string {
  if (version === "draft") return "draft";
  const deployment = deployments?.find((item) => item.id === version);
  return deployment ? `v${deployment.number}` : "a deployment";
}

/** Starting an evaluation, the workflow's evaluations with live progress, a chart over time, and one evaluation's results. */
export function EvaluationRunsTab({ workflowId, readOnly }: { workflowId: string; readOnly: boolean }) {
  const suites = useSuites(workflowId);
  const list = useEvaluationList(workflowId);
  const start = useStartEvaluation(workflowId);
  const deployments = useQuery({
    queryKey: ["deployments", workflowId],
    queryFn: () => api.deployments.list(workflowId),
  });
  const [suiteId, setSuiteId] = useState("");
  const [version, setVersion] = useState("draft");
  const [test, setTest] = useState(true);
  const [budget, setBudget] = useState("");
  const [openId, setOpenId] = useState<string | null>(null);
  const chosenSuite = suiteId || suites.data?.[0]?.id || "";
  const shownId = openId ?? list.data?.[0]?.id ?? null;
  const shown = useEvaluation(shownId);
  const finished = (list.data ?? []).filter((evaluation) => evaluation.summary !== null).reverse();
  return (
    <div className="space-y-3">
      {!readOnly && (
        <form
          className="flex flex-wrap items-end gap-2 rounded border border-slate-200 p-2 text-xs"
          onSubmit={(event) => {
            event.preventDefault();
            start.mutate(
              {
                suiteId: chosenSuite,
                version,
                test,
                ...(budget.trim() ? { budget: { maxCost: Number(budget) } } : {}),
              },
              { onSuccess: (started) => setOpenId(started.evaluationId) },
            );
          }}
        >
          <label>
            Suite
            <select
              className="input mt-1 block text-xs"
              data-testid="evaluation-suite"
              value={chosenSuite}
              onChange={(event) => setSuiteId(event.target.value)}
            >
              {suites.data?.map((suite) => (
                <option key={suite.id} value={suite.id}>
                  {suite.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Version
            <select
              className="input mt-1 block text-xs"
              data-testid="evaluation-version"
              value={version}
              onChange={(event) => setVersion(event.target.value)}
            >
              <option value="draft">Draft (as saved)</option>
              {deployments.data?.map((deployment) => (
                <option key={deployment.id} value={deployment.id}>
                  v{deployment.number}
                  {deployment.active ? " (active)" : ""}
                </option>
              ))}
            </select>
          </label>
          <label>
            Budget ($)
            <input
              className="input mt-1 block w-20 text-xs"
              inputMode="decimal"
              placeholder="none"
              value={budget}
              onChange={(event) => setBudget(event.target.value)}
            />
          </label>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={test} onChange={(event) => setTest(event.target.checked)} /> Test mode (side
            effects simulated)
          </label>
          <button
            type="submit"
            className="btn-primary text-xs"
            data-testid="evaluation-start"
            disabled={!chosenSuite || start.isPending}
          >
            Run suite
          </button>
          {start.isError && (
            <p className="w-full text-red-700" role="alert">
              {start.error.message}
            </p>
          )}
        </form>
      )}
      {finished.length > 1 && (
        <EvaluationChart
          points={finished.map((evaluation) => ({
            label: formatDateTime(evaluation.createdAt),
            passRate: evaluation.summary!.passRate,
            meanScore: evaluation.summary!.meanScore,
            costPerCase: evaluation.summary!.costPerCase,
          }))}
        />
      )}
      <ul className="divide-y divide-slate-100" data-testid="evaluation-list">
        {list.data?.map((evaluation: EvaluationInfo) => (
          <li key={evaluation.id}>
            <button
              type="button"
              className={`flex w-full items-center gap-2 px-1 py-1 text-left text-xs hover:bg-slate-50 ${shownId === evaluation.id ? "bg-indigo-50" : ""}`}
              data-testid="evaluation-item"
              data-status={evaluation.status}
              onClick={() => setOpenId(evaluation.id)}
            >
              <span className="w-36 text-slate-500">{formatDateTime(evaluation.createdAt)}</span>
              <span className="w-16">{versionLabel(evaluation.version, deployments.data)}</span>
              {evaluation.status === "running" ? (
                <EvaluationProgress evaluation={evaluation} />
              ) : (
                <span className={evaluation.summary?.passed ? "text-green-700" : "text-red-700"}>
                  {evaluation.status} ·{" "}
                  {evaluation.summary ? `${Math.round(evaluation.summary.passRate * 100)}% passed` : ""}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {shown.data && <EvaluationResults evaluation={shown.data} workflowId={workflowId} />}
    </div>
  );
}
