import { describe, expect, it } from "vitest";
import type { UsageReport } from "@/contract";
import { chartBars, nothingToChart } from "./usage-chart-data";

type Row = UsageReport["rows"][number];
const row = (key: string, dollars: number, unpriced = false) =>
  ({ key, label: key, runs: 2, unpriced, pricedCost: { total: dollars } }) as unknown as Row;
const report = (rows: Row[]) =>
  ({ from: "2026-12-01T00:00:00.000Z", to: "2026-12-04T00:00:00.000Z", groupBy: "day", rows }) as UsageReport;

describe("the Usage page's chart", () => {
  it("has a bar for every day of the period, a day without runs at $0", () => {
    const bars = chartBars(report([row("2026-12-02", 0.25)]));
    expect(bars.map((bar) => [bar.label, bar.dollars])).toEqual([
      ["2026-12-01", 0],
      ["2026-12-02", 0.25],
      ["2026-12-03", 0],
    ]);
  });

  it("is left out when every run cost $0.00 (offline model runs), rather than drawn on a made-up scale", () => {
    expect(nothingToChart(chartBars(report([row("2026-12-01", 0), row("2026-12-02", 0)])))).toBe(true);
    expect(nothingToChart(chartBars(report([row("2026-12-01", 0), row("2026-12-02", 0.000001)])))).toBe(false);
    // A run with no price is not known to be free.
    expect(nothingToChart(chartBars(report([row("2026-12-01", 0, true)])))).toBe(false);
  });
});
