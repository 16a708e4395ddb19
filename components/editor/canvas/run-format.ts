/** How run figures read on the canvas. Exact numbers; estimates say so. */

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1_000)} s`;
}

export function formatTokens(total: number, estimated?: boolean): string {
  return `${estimated ? "~" : ""}${total.toLocaleString("en-US")} tok${estimated ? " (est.)" : ""}`;
}

/** Dollars with enough digits that small costs are not shown as $0.00. */
export function formatCost(cost: { total: number } | null, unpriced?: boolean): string {
  if (cost === null || unpriced) return "unpriced";
  if (cost.total === 0) return "$0";
  if (cost.total < 0.01) return `$${cost.total.toPrecision(2)}`;
  return `$${cost.total.toFixed(4)}`;
}

/** A price per million tokens, as the model picker shows it. */
export function formatPricePerMillion(dollars: number): string {
  return dollars === 0 ? "$0" : `$${Number(dollars.toPrecision(3))}`;
}
