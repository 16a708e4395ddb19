import type { UsageReport } from "@/contract";
import type { UsageBar } from "./usage-chart";
import { daysOf } from "./usage-period";

/** The most bars the chart shows; the table has every row. */
export const CHART_BARS = 20;

/** The chart's bars: one per day of the period (empty days too), else the most expensive groups. */
export function chartBars(report: UsageReport): UsageBar[] {
  const bar = (label: string, row?: UsageReport["rows"][number]): UsageBar => ({
    label,
    dollars: row?.pricedCost.total ?? 0,
    unpriced: row?.unpriced ?? false,
    runs: row?.runs ?? 0,
  });
  if (report.groupBy === "day") {
    const byDay = new Map(report.rows.map((row) => [row.key, row]));
    return daysOf(report).map((day) => bar(day, byDay.get(day)));
  }
  return report.rows.slice(0, CHART_BARS).map((row) => bar(row.label, row));
}

/**
 * Whether every run cost nothing that is known (the offline model's, say): a chart of zeros has no
 * scale, and the chart library drew one up to $4.00. A run without a price is not known to be free.
 */
export function nothingToChart(bars: readonly UsageBar[]): boolean {
  return bars.every((bar) => bar.dollars === 0 && !bar.unpriced);
}
