"use client";

import { useState } from "react";
import type { ComparedCase, EvaluationInfo, OutputDiff } from "@/contract";
import { formatDateTime } from "@/components/ui/date-time";
import { formatDollars } from "@/components/ui/format";
import { useComparison, useEvaluationList } from "./use-evaluations";

const CHANGE_STYLE: Record<ComparedCase["change"], string> = {
  regressed: "text-red-700",
  improved: "text-green-700",
  unchanged: "text-slate-500",
  added: "text-slate-500",
  removed: "text-slate-500",
};

function label(evaluation: EvaluationInfo): string {
  const rate = evaluation.summary ? ` · ${Math.round(evaluation.summary.passRate * 100)}%` : "";
  return `${formatDateTime(evaluation.createdAt)} · ${evaluation.version === "draft" ? "draft" : "deployment"}${rate}`;
}

/** The output diff as the run diff shows it: removed words struck through, added ones highlighted. */
function OutputChange({ diff }: { diff: OutputDiff | null }) {
  if (!diff || !diff.changed) return <span className="text-slate-400">same output</span>;
  if (diff.kind === "json")
    return <span>{diff.changes.map((change) => change.path || "(whole output)").join(", ")} changed</span>;
  return (
    <span data-testid="compare-output-diff">
      {diff.parts.map((part, index) =>
        part.kind === "same" ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === "removed" ? (
          <del key={index} className="bg-red-50 text-red-700">
            {part.text}
          </del>
        ) : (
          <ins key={index} className="bg-green-50 text-green-800 no-underline">
            {part.text}
          </ins>
        ),
      )}
    </span>
  );
}

/** Two evaluations of one suite side by side: per case the score change, regressions first, and how sure the change is. */
export function CompareTab({ workflowId }: { workflowId: string }) {
  const list = useEvaluationList(workflowId);
  const ended = (list.data ?? []).filter((evaluation) => evaluation.status !== "running");
  const [before, setBefore] = useState("");
  const [after, setAfter] = useState("");
  const beforeId = before || ended[1]?.id || null;
  const afterId = after || ended[0]?.id || null;
  const comparison = useComparison(beforeId, afterId);
  const select = (value: string | null, set: (value: string) => void, name: string) => (
    <label className="text-xs">
      {name}
      <select
        className="input mt-1 block text-xs"
        data-testid={`compare-${name.toLowerCase()}`}
        value={value ?? ""}
        onChange={(event) => set(event.target.value)}
      >
        {ended.map((evaluation) => (
          <option key={evaluation.id} value={evaluation.id}>
            {label(evaluation)}
          </option>
        ))}
      </select>
    </label>
  );
  const data = comparison.data;
  return (
    <div className="space-y-3">
      <div className="flex gap-2">
        {select(beforeId, setBefore, "Before")}
        {select(afterId, setAfter, "After")}
      </div>
      {ended.length < 2 && (
        <p className="text-xs text-slate-600">
          Run the suite twice (say, on the active deployment and on the draft) to compare.
        </p>
      )}
      {comparison.isError && <p className="text-xs text-red-700">{comparison.error.message}</p>}
      {data && (
        <>
          <p className="text-xs" data-testid="compare-summary">
            <span className="text-red-700">{data.regressed} regressed</span> ·{" "}
            <span className="text-green-700">{data.improved} improved</span> · {data.unchanged} unchanged · mean change{" "}
            {data.meanDelta.toFixed(3)} (95% interval {data.bootstrap.low.toFixed(3)} to{" "}
            {data.bootstrap.high.toFixed(3)}; sign test p = {data.signTest.pValue.toFixed(3)}
            {data.signTest.pValue > 0.05 ? ", could be chance" : ""}) · cost {formatDollars(data.cost.from)} →{" "}
            {formatDollars(data.cost.to)}
          </p>
          <table className="w-full text-xs" data-testid="compare-table">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="px-1">Change</th>
                <th className="px-1">Input</th>
                <th className="px-1">Score</th>
                <th className="px-1">Output</th>
                <th className="px-1">Cost</th>
              </tr>
            </thead>
            <tbody>
              {data.cases.map((item) => (
                <tr
                  key={item.caseId}
                  className="border-t border-slate-100 align-top"
                  data-testid="compare-row"
                  data-change={item.change}
                >
                  <td className={`px-1 py-1 ${CHANGE_STYLE[item.change]}`}>{item.change}</td>
                  <td className="px-1 py-1">{JSON.stringify(item.input).slice(0, 60)}</td>
                  <td className="px-1 py-1">
                    {item.before?.score?.toFixed(2) ?? "–"} → {item.after?.score?.toFixed(2) ?? "–"}
                  </td>
                  <td className="px-1 py-1">
                    <OutputChange diff={item.outputDiff} />
                  </td>
                  <td className="px-1 py-1">
                    {item.costDelta === null
                      ? "–"
                      : `${item.costDelta >= 0 ? "+" : ""}${formatDollars(item.costDelta)}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
