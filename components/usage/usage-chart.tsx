"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDollars } from "@/components/runs";

export interface UsageBar {
  label: string;
  /** The priced dollars (all of them unless `unpriced`). */
  dollars: number;
  unpriced: boolean;
  runs: number;
}

const PRICED = "#4f46e5";
const PARTLY_UNPRICED = "#d97706";

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
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tickFormatter={shortLabel} interval="preserveStartEnd" fontSize={11} />
            <YAxis tickFormatter={(value: number) => formatDollars(value)} width={84} fontSize={11} />
            <Tooltip
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
