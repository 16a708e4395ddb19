"use client";

import type { UsageFiguresWithRuns, UsageReport } from "@/contract";
import { formatCost, formatDollars, formatTokenCount } from "@/components/ui/format";

/** A group's dollars as the runs' figures read: "unpriced" (with what is priced) when a part has no price, "≈" when estimated. */
export function costText(figures: UsageFiguresWithRuns): string {
  const cost = formatCost(figures);
  if (!figures.unpriced) return cost;
  const priced =
    figures.pricedCost.total > 0
      ? ` (${figures.estimated ? "≈ " : ""}${formatDollars(figures.pricedCost.total)} priced)`
      : "";
  return `${cost}${priced}`;
}

function tokensTitle({ tokens }: UsageFiguresWithRuns): string {
  return `${formatTokenCount(tokens.prompt)} prompt + ${formatTokenCount(tokens.completion)} completion`;
}

const cell = "px-3 py-2";
const number = `${cell} text-right tabular-nums`;

/** Runs, and how many of them were test runs (their models ran and are counted; their side effects were simulated). */
function RunCount({ figures }: { figures: Pick<UsageFiguresWithRuns, "runs" | "testRuns"> }) {
  return (
    <>
      {formatTokenCount(figures.runs)}
      {figures.testRuns > 0 && (
        <span
          className="ml-1 text-xs text-teal-700"
          title="Test runs: their model calls ran and are counted; their side effects were simulated"
          data-testid="usage-test-runs"
        >
          ({formatTokenCount(figures.testRuns)} test)
        </span>
      )}
    </>
  );
}

/** Every group with its runs, tokens and cost, and the period's totals. */
export function UsageTable({ report, groupLabel }: { report: UsageReport; groupLabel: string }) {
  return (
    <table className="w-full rounded border border-slate-200 bg-white text-sm" data-testid="usage-table">
      <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
        <tr>
          <th className={cell}>{groupLabel}</th>
          <th className={`${cell} text-right`}>Runs</th>
          <th className={`${cell} text-right`}>Tokens</th>
          <th className={`${cell} text-right`}>Cost</th>
        </tr>
      </thead>
      <tbody>
        {report.rows.map((row) => (
          <tr
            key={`${row.key ?? "none"}:${row.trigger ?? ""}:${row.label}`}
            className="border-b border-slate-100"
            data-testid="usage-row"
          >
            <td className={cell}>
              <span className={row.key === null ? "italic text-slate-600" : undefined}>{row.label}</span>
            </td>
            <td className={number}>
              <RunCount figures={row} />
            </td>
            <td className={number} title={tokensTitle(row)}>
              {row.estimated ? "≈ " : ""}
              {formatTokenCount(row.tokens.total)}
            </td>
            <td className={`${number} ${row.unpriced ? "text-amber-700" : ""}`}>{costText(row)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot className="font-medium">
        <tr data-testid="usage-totals">
          <td className={cell}>Total</td>
          <td className={number}>
            <RunCount figures={report.totals} />
          </td>
          <td className={number} title={tokensTitle(report.totals)}>
            {report.totals.estimated ? "≈ " : ""}
            {formatTokenCount(report.totals.tokens.total)}
          </td>
          <td className={`${number} ${report.totals.unpriced ? "text-amber-700" : ""}`}>{costText(report.totals)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
