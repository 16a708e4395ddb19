"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDollars } from "@/components/ui/format";

export interface EvaluationPoint {
  label: string;
  passRate: number;
  meanScore: number;
  costPerCase: number;
}

const AXIS = { tick: { fill: "var(--color-slate-500)" }, stroke: "var(--color-slate-300)" };
const TOOLTIP_STYLE = {
  backgroundColor: "var(--color-white)",
  borderColor: "var(--color-slate-200)",
  color: "var(--color-slate-900)",
};

/** Scores (left axis, 0 to 1) and cost per case (right axis) across the workflow's evaluations, oldest first. Loaded in the browser only. */
export default function EvaluationChart({ points }: { points: EvaluationPoint[] }) {
  return (
    <figure
      className="rounded border border-slate-200 p-2"
      data-testid="evaluation-chart"
      aria-label="Scores and cost over time"
    >
      <figcaption className="mb-1 text-xs font-medium text-slate-700">Scores and cost per case over time</figcaption>
      <div className="h-48">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 4, left: 4 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" />
            <XAxis dataKey="label" fontSize={10} {...AXIS} />
            <YAxis yAxisId="score" domain={[0, 1]} fontSize={10} width={32} {...AXIS} />
            <YAxis
              yAxisId="cost"
              orientation="right"
              tickFormatter={(value: number) => formatDollars(value)}
              fontSize={10}
              width={72}
              {...AXIS}
            />
            <Tooltip contentStyle={TOOLTIP_STYLE} />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            <Line yAxisId="score" dataKey="passRate" name="pass rate" stroke="var(--color-green-600)" dot />
            <Line yAxisId="score" dataKey="meanScore" name="mean score" stroke="var(--color-indigo-600)" dot />
            <Line yAxisId="cost" dataKey="costPerCase" name="cost per case" stroke="var(--color-amber-600)" dot />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
