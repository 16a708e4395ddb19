import type { UsageReport } from "@/contract";

/** The Usage page's period choices: the last N whole UTC days (today included), or dates chosen. */
export const PERIOD_PRESETS = [7, 30, 90] as const;

const DAY_MS = 86_400_000;
const utcDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The last `days` UTC days up to and including today's, as the `from` and `to` dates GET /api/usage takes. */
export function lastDays(days: number, now: Date = new Date()): { from: string; to: string } {
  return { from: utcDate(now.getTime() - (days - 1) * DAY_MS), to: utcDate(now.getTime()) };
}

/** Every UTC day of a report's period, oldest first: the day chart shows the days without runs too. */
export function daysOf(report: Pick<UsageReport, "from" | "to">): string[] {
  const days: string[] = [];
  const last = utcDate(Date.parse(report.to) - 1);
  for (let time = Date.parse(report.from.slice(0, 10)); days.length < 400; time += DAY_MS) {
    const day = utcDate(time);
    days.push(day);
    if (day >= last) break;
  }
  return days;
}
