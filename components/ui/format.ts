/**
 * The one way run figures read, on the canvas, in the toolbar, in the trace and in history.
 * Figures are shown exactly as the server computed them (dollars are kept to 1e-10); an
 * estimate or a missing price is said in words, never hidden behind a rounded or made-up number.
 */

import { countOf, formatDollars, formatEstimatedDollars } from "@/contract";

export { countOf, formatDollars, formatEstimatedDollars };

export interface CostFigure {
  cost?: { total: number } | null;
  unpriced?: boolean;
  estimated?: boolean;
}

/** A cost as a user reads it: "unpriced" when no price is known, "≈ $…" when tokens were estimated. */
export function formatCost(figure: CostFigure): string {
  if (figure.unpriced || figure.cost === null || figure.cost === undefined) return "unpriced";
  return `${figure.estimated ? "≈ " : ""}${formatDollars(figure.cost.total)}`;
}

export function formatTokenCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** `1,234 tokens`, `1 token`, or `≈ 1,234 tokens` when some were counted locally. */
export function formatTokens(total: number, estimated?: boolean): string {
  return `${estimated ? "≈ " : ""}${countOf(total, "token")}`;
}

/** `850 ms`, `2.35 s`, `14.2 s`, `3 min 05 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1_000).toFixed(2)} s`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1_000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
}

/** The words that mark a figure as not exact, for a tooltip or a small label. */
export function figureMarks(figure: CostFigure): string[] {
  const marks: string[] = [];
  if (figure.unpriced || figure.cost === null) marks.push("unpriced");
  if (figure.estimated) marks.push("≈ estimated");
  return marks;
}
