"use client";

import { memo } from "react";
import { countOf, type CostRange, type WorkflowEstimate } from "@/contract";
import { useEditorStore } from "@/components/editor/store";
import { formatEstimatedDollars } from "@/components/ui/format";
import { useRunEstimate } from "./use-run-estimate";

function rangeTitle(range: CostRange): string {
  return `Estimate before running (no model is called): low ${formatEstimatedDollars(range.low)}, expected ${formatEstimatedDollars(range.expected)}, high ${formatEstimatedDollars(range.high)}`;
}

/** The Run form's estimate, live as the input is typed. */
export function RunEstimateSummary() {
  const { estimate, error, pending } = useRunEstimate();
  return (
    <div
      className="mb-2 rounded border border-dashed border-slate-300 bg-slate-50 px-2 py-1.5 text-xs text-slate-600"
      data-testid="run-estimate"
      aria-live="polite"
    >
      <span className="font-medium">Estimated cost</span>
      {error ? (
        <span className="ml-1 text-amber-800" data-testid="run-estimate-error">
          : {error}
        </span>
      ) : estimate ? (
        <EstimateFigures estimate={estimate} />
      ) : (
        <span className="ml-1 text-slate-400">…</span>
      )}
      {pending && estimate && <span className="ml-1 text-slate-400">(updating)</span>}
    </div>
  );
}

/** The figures of an estimate, rounded as estimates are (formatEstimatedDollars). */
export function EstimateFigures({ estimate }: { estimate: WorkflowEstimate }) {
  const { total } = estimate;
  return (
    <>
      <span className="ml-1" title={rangeTitle(total)} data-testid="run-estimate-expected">
        ~{formatEstimatedDollars(total.expected)}
      </span>
      <span className="ml-1 text-slate-500" data-testid="run-estimate-range">
        (low {formatEstimatedDollars(total.low)}, high {formatEstimatedDollars(total.high)})
      </span>
      <span className="block text-slate-500">
        {estimate.historyRuns > 0
          ? `From the last ${countOf(estimate.historyRuns, "succeeded run")} and the prompts.`
          : "No past run yet: from the prompts and default allowances."}
      </span>
      {estimate.unpriced.length > 0 && (
        <span className="block text-amber-800" data-testid="run-estimate-unpriced">
          Not counted, no known price: {estimate.unpriced.join(", ")}
        </span>
      )}
    </>
  );
}

/**
 * A node's estimated cost before running, as a faint badge ("~$0.0012"). Hidden once a run is
 * shown on the canvas: its real figures take the place.
 */
export const NodeEstimateBadge = memo(function NodeEstimateBadge({ blockId }: { blockId: string }) {
  const runShown = useEditorStore((store) => store.run.view.status !== "idle");
  const { estimate } = useRunEstimate();
  if (runShown || !estimate) return null;
  const entry = estimate.blocks.find((block) => block.blockId === blockId);
  if (!entry) return null;
  return (
    <div
      className="border-t border-dashed border-slate-200 px-3 py-1 text-[11px] text-slate-500"
      data-testid={`block-estimate-${blockId}`}
    >
      {entry.cost ? (
        <span title={rangeTitle(entry.cost)}>~{formatEstimatedDollars(entry.cost.expected)} estimated</span>
      ) : (
        <span className="text-amber-700" title={`${entry.model} has no known price: not counted in the estimate`}>
          ~? no price for {entry.model}
        </span>
      )}
    </div>
  );
});
