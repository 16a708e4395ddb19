"use client";

import { useQuery } from "@tanstack/react-query";
import { api, type BlockRunDiff, type FigureChange, countOf } from "@/contract";
import { formatDollars, formatDuration, formatTokenCount } from "@/components/ui/format";
import { RunDiffOutput } from "./run-diff-output";

const CHANGE_STYLE: Record<BlockRunDiff["change"], string> = {
  changed: "bg-amber-100 text-amber-900",
  added: "bg-green-100 text-green-900",
  removed: "bg-red-100 text-red-900",
  same: "bg-slate-100 text-slate-500",
};

/** `+12`, `-0.0004`, or nothing when the figure did not move. */
function Delta({
  figure,
  format,
  testId,
}: {
  figure: FigureChange;
  format: (value: number) => string;
  testId: string;
}) {
  const side = (value: number | null) => (value === null ? "—" : format(value));
  return (
    <td className="px-2 py-1 whitespace-nowrap" data-testid={testId}>
      {side(figure.from)} → {side(figure.to)}
      {figure.delta !== 0 && (
        <span className={`ml-1 ${figure.delta > 0 ? "text-red-700" : "text-green-700"}`}>
          ({figure.delta > 0 ? "+" : "-"}
          {format(Math.abs(figure.delta))})
        </span>
      )}
    </td>
  );
}

/** A run's total: "unpriced" rather than a made-up $0 when a model had no price. */
function dollarsOrUnpriced(value: number | null): string {
  return value === null ? "unpriced" : formatDollars(value);
}

function blockLabel(block: BlockRunDiff): string {
  return block.iteration ? `${block.blockName} [${block.iteration.join(".")}]` : block.blockName;
}

/** Two runs of this workflow side by side, block by block, the largest changes first (GET /api/runs/:id/diff/:otherId). */
export function RunDiffView({ runId, otherId, onClose }: { runId: string; otherId: string; onClose: () => void }) {
  const diff = useQuery({ queryKey: ["run-diff", runId, otherId], queryFn: () => api.runs.diff(runId, otherId) });
  return (
    <div className="flex h-full flex-col" data-testid="run-diff">
      <div className="flex items-center gap-2 border-b border-slate-100 px-2 py-1 text-xs">
        <button
          type="button"
          className="btn-secondary px-2 py-0.5 text-xs"
          onClick={onClose}
          data-testid="run-diff-close"
        >
          ← History
        </button>
        <span className="text-slate-600">
          Run {runId.slice(-8)} → run {otherId.slice(-8)}
        </span>
        {diff.data && (
          <span className="text-slate-600" data-testid="run-diff-summary">
            {diff.data.changedBlocks === 0
              ? "no block differs"
              : `${countOf(diff.data.changedBlocks, "block")} differ${diff.data.changedBlocks === 1 ? "s" : ""}`}{" "}
            · cost {dollarsOrUnpriced(diff.data.totals.cost.from)} → {dollarsOrUnpriced(diff.data.totals.cost.to)}
          </span>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-auto">
        {diff.isPending && <p className="p-2 text-sm text-slate-500">Comparing…</p>}
        {diff.isError && <p className="p-2 text-sm text-red-700">Could not compare the runs: {diff.error.message}</p>}
        {diff.data && (
          <table className="w-full text-xs">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="px-2 py-1 font-medium">Block</th>
                <th className="px-2 py-1 font-medium">Status</th>
                <th className="px-2 py-1 font-medium">Output</th>
                <th className="px-2 py-1 font-medium">Tokens</th>
                <th className="px-2 py-1 font-medium">Cost</th>
                <th className="px-2 py-1 font-medium">Duration</th>
              </tr>
            </thead>
            <tbody>
              {diff.data.blocks.map((block) => (
                <tr
                  key={`${block.blockId}@${block.iteration?.join(".") ?? ""}`}
                  className="border-b border-slate-50 align-top"
                  data-testid="diff-row"
                  data-block-id={block.blockId}
                  data-change={block.change}
                >
                  <td className="px-2 py-1">
                    <div className="font-medium text-slate-800">{blockLabel(block)}</div>
                    <span className={`rounded px-1 ${CHANGE_STYLE[block.change]}`} data-testid="diff-change">
                      {block.change}
                    </span>
                  </td>
                  <td
                    className={`px-2 py-1 whitespace-nowrap ${block.status.changed ? "font-medium text-red-700" : "text-slate-500"}`}
                  >
                    {block.status.changed ? `${block.status.from ?? "—"} → ${block.status.to ?? "—"}` : block.status.to}
                  </td>
                  <td className="max-w-md px-2 py-1">
                    <RunDiffOutput diff={block.output} />
                  </td>
                  <Delta figure={block.tokens} format={formatTokenCount} testId="diff-tokens" />
                  <Delta figure={block.cost} format={formatDollars} testId="diff-cost" />
                  <Delta figure={block.durationMs} format={formatDuration} testId="diff-duration" />
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
