/** A fire time in the schedule's own zone, with the zone's short name ("Mon 9 Mar 2026, 09:00:00 CET"). */
export function fireTimeText(iso: string, timezone: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, {
      timeZone: timezone,
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** The zones a schedule may use: the browser's list (IANA names), with UTC first. */
export function timeZoneChoices(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((zone) => zone !== "UTC")];
}

/** The browser's own zone, as the form's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Where a fire's run is shown. One place, for when runs get a page of their own. */
export function runHref(runId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}`;
}
