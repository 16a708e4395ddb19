import type { UsageReport, UsageRow } from "@/contract";

/**
 * The Usage page's rows as CSV (RFC 4180): a header line, one line per row, CRLF between lines, a
 * field quoted when it holds a comma, a quote or a line break, quotes doubled inside. Dollars are
 * written in full (to 1e-10, never in exponent form) so a spreadsheet adds them up as the server
 * did. Names come from users, so a text field that a spreadsheet would take for a formula (`=`,
 * `+`, `-`, `@`, tab, CR) is led by a `'` and stays text.
 */

export const USAGE_CSV_HEADER = [
  "group",
  "key",
  "runs",
  "prompt_tokens",
  "completion_tokens",
  "total_tokens",
  "cost_usd",
  "priced_cost_usd",
  "unpriced",
  "estimated",
] as const;

/** One field as RFC 4180 writes it. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A user's text, kept text by a spreadsheet. */
export function csvText(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** `0.0000000001`, `12.5`, `0`: every stored digit, no exponent. */
export function plainDollars(dollars: number): string {
  return dollars.toFixed(10).replace(/\.?0+$/, "") || "0";
}

function line(row: UsageRow): string {
  return [
    csvText(row.label),
    csvText(row.key ?? ""),
    String(row.runs),
    String(row.tokens.prompt),
    String(row.tokens.completion),
    String(row.tokens.total),
    row.cost === null ? "" : plainDollars(row.cost.total),
    plainDollars(row.pricedCost.total),
    String(row.unpriced),
    String(row.estimated),
  ].join(",");
}

export function usageCsv(report: Pick<UsageReport, "rows">): string {
  return [USAGE_CSV_HEADER.join(","), ...report.rows.map(line)].join("\r\n") + "\r\n";
}

/** `trellis-usage-apiKey-2025-03-01-to-2025-03-31.csv`: the days are those of the period's first and last moments, UTC. */
export function usageCsvFileName(report: Pick<UsageReport, "groupBy" | "from" | "to">): string {
  const last = new Date(Date.parse(report.to) - 1).toISOString().slice(0, 10);
  return `trellis-usage-${report.groupBy}-${report.from.slice(0, 10)}-to-${last}.csv`;
}
