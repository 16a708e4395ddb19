/**
 * How every page shows a moment: one format everywhere (home, history, runs, triggers), so the same
 * instant never reads two ways. The locale is the browser's own; only the shape is fixed.
 */
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const timeOfDayFormat = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  fractionalSecondDigits: 3,
  hourCycle: "h23",
});

/** A date and time to the second: "23 Nov 2026, 17:18:09" (in the reader's locale). */
export function formatDateTime(value: string | number | Date): string {
  return dateTimeFormat.format(new Date(value));
}

/** A date alone, as formatDateTime writes the date: "23 Nov 2026" (in the reader's locale). */
export function formatDate(value: string | number | Date): string {
  return dateFormat.format(new Date(value));
}

/** A time of day to the millisecond, for spans within one run: "17:18:09.171". */
export function formatTimeOfDay(value: string | number | Date): string {
  return timeOfDayFormat.format(new Date(value));
}
