import { formatDate, formatDateTime } from "@/components/ui/date-time";

/** A date and time as every page shows them (formatDateTime), or `never` when there is none. */
export function dateText(value: string | null, never = ""): string {
  return value ? formatDateTime(value) : never;
}

/** A date alone, as formatDateTime writes the date ("12 Mar 2026"). */
export function dayText(value: string): string {
  return formatDate(value);
}

/** What a failed call says: the server's message (ApiError carries it), else the error's. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
