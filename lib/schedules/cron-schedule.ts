import "server-only";
import { Cron } from "croner";
import { NEXT_RUNS_SHOWN, countOf } from "@/contract";
import { RequestError } from "@/lib/http/errors";

/**
 * A cron expression in a time zone, parsed and checked once by croner (a maintained library: the
 * parsing, the calendar and the DST rules are its, not ours). Accepted: 5 fields (minute hour
 * day-of-month month day-of-week), or 6 with seconds first; whatever croner supports inside a
 * field (ranges, steps, names, `L`, `#`, `W`). Refused, each with a 400 naming the expression:
 * another number of fields (nicknames such as `@daily` included), a field croner refuses, an
 * expression that never fires (February 30), and an unknown time zone. Nothing can fire more
 * often than once a second: croner's smallest unit is the second and a 7th (year) field is refused.
 */
export interface CronSchedule {
  /** The expression as stored: trimmed, fields separated by one space. */
  cron: string;
  /** The time zone's IANA name as the runtime spells it (`utc` becomes `UTC`). */
  timezone: string;
  /** The first fire time strictly after `after`, or null when there is none. */
  nextAfter(after: Date): Date | null;
  /** The next `count` fire times strictly after `after`. */
  nextRuns(count: number, after: Date): Date[];
  /** The latest fire time at or before `at` (second precision), or null when there is none. */
  latestAtOrBefore(at: Date): Date | null;
}

const FIELD_HELP =
  "5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first (second minute hour day-of-month month day-of-week)";

function cronProblem(message: string, detail: string): RequestError {
  return new RequestError("invalid_request", message, [{ path: "cron", message: detail }]);
}

/** The IANA name of a time zone, or a 400 naming it. The runtime's zone database decides (the browser's list is the same). */
export function canonicalTimeZone(timezone: string): string {
  const name = timezone.trim();
  // Offsets (`+02:00`) are not zones: they keep no DST rules, so a schedule in one drifts twice a year.
  if (/^[A-Za-z]/.test(name)) {
    try {
      return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    } catch {
      // Unknown: answered below.
    }
  }
  throw new RequestError(
    "invalid_request",
    `"${timezone}" is not a time zone: use an IANA name such as Europe/Paris, America/New_York or UTC.`,
    [{ path: "timezone", message: `"${timezone}" is not an IANA time zone name` }],
  );
}

/** croner's message without its class-name prefix ("CronPattern: ..."). */
function cronerReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Cron(Pattern|Date)?:\s*/, "");
}

/**
 * Parses `cron` in `timezone`, or throws a 400 (`invalid_request`) whose message names the
 * expression (or the zone) and says what is wrong. `now` is when "never fires" is judged.
 */
export function parseCronSchedule(cron: string, timezone: string, now: Date = new Date()): CronSchedule {
  const zone = canonicalTimeZone(timezone);
  const fields = cron.trim().split(/\s+/).filter(Boolean);
  const normalized = fields.join(" ");
  if (fields.length === 0) throw cronProblem(`The cron expression is empty: write ${FIELD_HELP}.`, "is empty");
  if (fields.length === 1 && normalized.startsWith("@")) {
    throw cronProblem(
      `The cron expression "${normalized}" is a nickname; write it as fields instead: ${FIELD_HELP}.`,
      "nicknames are not accepted",
    );
  }
  if (fields.length !== 5 && fields.length !== 6) {
    throw cronProblem(
      `The cron expression "${normalized}" has ${countOf(fields.length, "field")}; it needs ${FIELD_HELP}.`,
      "needs 5 or 6 fields",
    );
  }
  let pattern: Cron;
  try {
    pattern = new Cron(normalized, { mode: "5-or-6-parts", timezone: zone });
  } catch (error) {
    const reason = cronerReason(error);
    throw cronProblem(`The cron expression "${normalized}" is not valid: ${reason}`, reason);
  }
  const upcoming = pattern.nextRuns(2, now);
  if (upcoming.length === 0) {
    throw cronProblem(
      `The cron expression "${normalized}" never fires: no date matches it (a day that does not exist in its month, such as February 30?).`,
      "never fires",
    );
  }
  if (upcoming.length === 2 && upcoming[1]!.getTime() - upcoming[0]!.getTime() < 1_000) {
    throw cronProblem(
      `The cron expression "${normalized}" fires more often than once a second, which schedules do not allow.`,
      "fires more than once a second",
    );
  }
  return {
    cron: normalized,
    timezone: zone,
    nextAfter: (after) => pattern.nextRun(after),
    nextRuns: (count, after) => pattern.nextRuns(count, after),
    latestAtOrBefore(at) {
      // croner drops the reference's milliseconds and looks strictly before it; fire times are whole seconds,
      // so strictly before the next whole second is at or before `at`.
      const [latest] = pattern.previousRuns(1, new Date(Math.floor(at.getTime() / 1_000) * 1_000 + 1_000));
      return latest ?? null;
    },
  };
}

/** The next NEXT_RUNS_SHOWN fire times after `now`, as ISO strings (the API's `nextRuns`). */
export function upcomingFireTimes(schedule: CronSchedule, now: Date = new Date()): string[] {
  return schedule.nextRuns(NEXT_RUNS_SHOWN, now).map((date) => date.toISOString());
}
