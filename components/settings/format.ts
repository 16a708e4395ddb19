/** A date and time as the settings pages show them, or `never` when there is none. */
export function dateText(value: string | null, never = ""): string {
  return value ? new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : never;
}

/** A date alone ("12 Mar 2026"). */
export function dayText(value: string): string {
  return new Date(value).toLocaleDateString(undefined, { dateStyle: "medium" });
}

/** What a failed call says: the server's message (ApiError carries it), else the error's. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
