"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import dynamic from "next/dynamic";
import { useState } from "react";
import { api, USAGE_GROUP_BYS, type UsageGroupBy, type UsageReport, countOf } from "@/contract";
import { errorText } from "@/components/settings/format";
import { CHART_BARS, chartBars, nothingToChart } from "./usage-chart-data";
import { usageCsv, usageCsvFileName } from "./usage-csv";
import { lastDays, PERIOD_PRESETS } from "./usage-period";
import { UsageTable } from "./usage-table";
import { PageHeader } from "@/components/ui/page-header";

// The chart library is loaded with this page only, and in the browser only (it measures its box).
const UsageChart = dynamic(() => import("./usage-chart"), {
  ssr: false,
  loading: () => <div className="h-72 rounded border border-slate-200 bg-white" aria-hidden />,
});

export const GROUP_LABELS: Record<UsageGroupBy, string> = {
  apiKey: "API key",
  workflow: "Workflow",
  model: "Model",
  trigger: "Trigger",
  day: "Day",
};

type Period = { preset: (typeof PERIOD_PRESETS)[number] } | { preset: "custom"; from: string; to: string };

function downloadCsv(report: UsageReport) {
  const url = URL.createObjectURL(new Blob([usageCsv(report)], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = usageCsvFileName(report);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

function PeriodPicker({ period, onChange }: { period: Period; onChange(period: Period): void }) {
  const custom = period.preset === "custom" ? period : null;
  return (
    <div className="flex flex-wrap items-end gap-2" role="group" aria-label="Period">
      {PERIOD_PRESETS.map((days) => (
        <button
          key={days}
          type="button"
          className={period.preset === days ? "btn-primary" : "btn-secondary"}
          aria-pressed={period.preset === days}
          onClick={() => onChange({ preset: days })}
        >
          {countOf(days, "day")}
        </button>
      ))}
      <button
        type="button"
        className={custom ? "btn-primary" : "btn-secondary"}
        aria-pressed={custom !== null}
        onClick={() => onChange({ preset: "custom", ...lastDays(period.preset === "custom" ? 30 : period.preset) })}
      >
        Custom
      </button>
      {custom && (
        <>
          <label className="flex flex-col text-xs text-slate-600">
            From
            <input
              type="date"
              className="input"
              value={custom.from}
              max={custom.to}
              onChange={(event) => onChange({ ...custom, from: event.target.value })}
            />
          </label>
          <label className="flex flex-col text-xs text-slate-600">
            To (included)
            <input
              type="date"
              className="input"
              value={custom.to}
              min={custom.from}
              onChange={(event) => onChange({ ...custom, to: event.target.value })}
            />
          </label>
        </>
      )}
    </div>
  );
}

/** The Usage page: what runs spent over a period, by API key, workflow, model, trigger or day, as a chart, a table and a CSV file. */
export function UsagePage() {
  const [period, setPeriod] = useState<Period>({ preset: 30 });
  const [groupBy, setGroupBy] = useState<UsageGroupBy>("apiKey");
  const range = period.preset === "custom" ? { from: period.from, to: period.to } : lastDays(period.preset);
  const usage = useQuery({
    queryKey: ["usage", range.from, range.to, groupBy],
    queryFn: () => api.usage.get({ ...range, groupBy }),
    placeholderData: keepPreviousData,
    enabled: Boolean(range.from && range.to),
  });
  const report = usage.data;
  const bars = report ? chartBars(report) : [];

  return (
    <main className="mx-auto max-w-5xl space-y-6 px-6 py-10">
      <PageHeader>
        <p>
          What runs spent, by who or what started them. Days are UTC days; a run counts on the day it was asked for. A
          workflow called as a tool counts in the run that called it.
        </p>
      </PageHeader>

      <section className="flex flex-wrap items-end justify-between gap-4" aria-label="What to show">
        <PeriodPicker period={period} onChange={setPeriod} />
        <div className="flex items-end gap-2">
          <label className="flex flex-col text-xs text-slate-600">
            Group by
            <select
              className="input"
              value={groupBy}
              onChange={(event) => setGroupBy(event.target.value as UsageGroupBy)}
              data-testid="usage-group-by"
            >
              {USAGE_GROUP_BYS.map((value) => (
                <option key={value} value={value}>
                  {GROUP_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn-secondary"
            disabled={!report}
            onClick={() => report && downloadCsv(report)}
          >
            <Download size={14} aria-hidden /> Download CSV
          </button>
        </div>
      </section>

      {usage.isError && (
        <p role="alert" className="flex items-center gap-2 text-sm text-red-700">
          Could not load usage: {errorText(usage.error)}
          <button type="button" className="btn-secondary" onClick={() => void usage.refetch()}>
            Retry
          </button>
        </p>
      )}
      {!report && !usage.isError && <p className="text-sm text-slate-500">Loading…</p>}
      {report && (
        <div className={usage.isPlaceholderData ? "space-y-6 opacity-60" : "space-y-6"} aria-busy={usage.isFetching}>
          {report.rows.length === 0 ? (
            <p
              className="rounded border border-dashed border-slate-300 px-6 py-10 text-center text-slate-500"
              data-testid="usage-empty"
            >
              No runs in this period.
            </p>
          ) : (
            <>
              {nothingToChart(bars) ? (
                <p
                  className="rounded border border-slate-200 bg-white px-4 py-3 text-sm text-slate-600"
                  data-testid="usage-free"
                >
                  Every run in this period cost $0.00, so there is no cost to chart.
                </p>
              ) : (
                <UsageChart
                  bars={bars}
                  title={`Cost per ${report.groupBy === "apiKey" ? "API key" : GROUP_LABELS[report.groupBy].toLowerCase()}${report.groupBy !== "day" && report.rows.length > CHART_BARS ? ` (the ${CHART_BARS} most expensive)` : ""}`}
                />
              )}
              <UsageTable report={report} groupLabel={GROUP_LABELS[report.groupBy]} />
            </>
          )}
        </div>
      )}
    </main>
  );
}
