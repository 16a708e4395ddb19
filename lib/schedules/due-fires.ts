import "server-only";
import type { CronSchedule } from "./cron-schedule";

/** A fire time that is due, and whether it is the one late run standing for times missed while nothing ran. */
export interface DueFire {
  fireAt: Date;
  missed: boolean;
}

/** The most fire times one pass starts for one schedule; the rest are due again at the next pass. */
const MAX_DUE_PER_PASS = 10;

/**
 * The fire times of `cron` after `since` (its last fire, resume or creation) that are due at
 * `now`. A process looks every second at least, so the fire times it finds are normally just
 * past; each is due. When the first one is older than `catchUpMs`, no process was running then
 * (everything was down, or stalled): the schedule fires once, for the latest time due, marked
 * `missed`, not once per time missed (an hourly report after a weekend away runs once, not 48 times).
 */
export function dueFires(cron: CronSchedule, since: Date, now: Date, catchUpMs: number): DueFire[] {
  const first = cron.nextAfter(since);
  if (!first || first.getTime() > now.getTime()) return [];
  if (now.getTime() - first.getTime() > catchUpMs) {
    const latest = cron.latestAtOrBefore(now);
    return [{ fireAt: latest && latest.getTime() > first.getTime() ? latest : first, missed: true }];
  }
  const due: DueFire[] = [];
  for (
    let at: Date | null = first;
    at && at.getTime() <= now.getTime() && due.length < MAX_DUE_PER_PASS;
    at = cron.nextAfter(at)
  ) {
    due.push({ fireAt: at, missed: false });
  }
  return due;
}

/** Where a schedule's fire times start: after its last fire, its last resume or its creation, whichever is latest. */
export function firesSince(schedule: { createdAt: Date; lastFireAt: Date | null; resumedAt: Date | null }): Date {
  const times = [schedule.createdAt, schedule.lastFireAt, schedule.resumedAt].filter(
    (time): time is Date => time !== null,
  );
  return new Date(Math.max(...times.map((time) => time.getTime())));
}
