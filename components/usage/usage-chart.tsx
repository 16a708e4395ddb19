"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDollars } from "@/components/ui/format";

export interface UsageBar {
  label: string;
  /** The priced dollars (all of them unless `unpriced`). */
  dollars: number;
  unpriced: boolean;
  runs: number;
}

/** Palette variables, so the chart follows the light or dark theme (app/dark-palette.css). */
const PRICED = "var(--color-indigo-600)";
const PARTLY_UNPRICED = "var(--color-amber-600)";
const AXIS = { tick: { fill: "var(--color-slate-500)" }, stroke: "var(--color-slate-300)" };
const TOOLTIP_STYLE = {
  backgroundColor: "var(--color-white)",
  borderColor: "var(--color-slate-200)",
  color: "var(--color-slate-900)",
};

/** Short axis labels: a long key or workflow name would crowd the axis (the tooltip has it whole). */
const shortLabel = (label: string) => (label.length > 18 ? `${label.slice(0, 17)}…` : label);

/** A bar per group: its dollars. Amber when some of its runs have no price (the bar shows the priced part). Loaded in the browser only. */
export default function UsageChart({ bars, title }: { bars: UsageBar[]; title: string }) {
  return (
    <figure className="rounded border border-slate-200 bg-white p-3" data-testid="usage-chart" aria-label={title}>
      <figcaption className="mb-2 text-sm font-medium text-slate-700">{title}</figcaption>
      <div className="h-64">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--color-slate-200)" />
            <XAxis dataKey="label" tickFormatter={shortLabel} interval="preserveStartEnd" fontSize={11} {...AXIS} />
            <YAxis tickFormatter={(value: number) => formatDollars(value)} width={84} fontSize={11} {...AXIS} />
            <Tooltip
              contentStyle={TOOLTIP_STYLE}
              cursor={{ fill: "var(--color-slate-100)" }}
              formatter={(value, _name, item) => {
                const bar = (item as { payload?: UsageBar } | undefined)?.payload;
                const dollars = formatDollars(Number(value));
                return [bar?.unpriced ? `${dollars} priced (some runs unpriced)` : dollars, "Cost"];
              }}
            />
            <Bar dataKey="dollars" isAnimationActive={false}>
              {bars.map((bar, index) => (
                <Cell key={`${bar.label}-${index}`} fill={bar.unpriced ? PARTLY_UNPRICED : PRICED} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
