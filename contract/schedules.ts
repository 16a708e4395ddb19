import { z } from "zod";
import { withoutReservedKeys } from "./reserved-names";

/** Schedules: a workflow's active deployment run at cron times (docs/CONTRACT.md section 9). */

/** Longer than any cron expression a person writes; a longer one is refused before it is parsed. */
export const CRON_MAX_LENGTH = 200;
/** How many fire times a schedule's answer and the preview list. */
export const NEXT_RUNS_SHOWN = 5;
/** How many of its latest fires a schedule in the list carries. */
export const RECENT_FIRES_SHOWN = 5;

const cronField = z.string().max(CRON_MAX_LENGTH, `must be at most ${CRON_MAX_LENGTH} characters`);
/** An IANA time zone name (`Europe/Paris`, `UTC`); checked against the server's zone database. */
const timezoneField = z.string().min(1, "must name a time zone").max(100, "must be at most 100 characters");

/** POST /api/workflows/:id/schedules: `cron` has 5 fields, or 6 with seconds first; `timezone` defaults to UTC. */
export const createScheduleRequestSchema = z.strictObject({
  cron: cronField,
  timezone: timezoneField.optional().default("UTC"),
  /** The start inputs of every run it starts. */
  input: withoutReservedKeys(z.record(z.string(), z.unknown())).optional().default({}),
});
export type CreateScheduleRequest = z.input<typeof createScheduleRequestSchema>;

/** POST /api/schedules/preview (an extension): the next fire times of an expression, as it is being typed. */
export const schedulePreviewRequestSchema = z.strictObject({
  cron: cronField,
  timezone: timezoneField.optional().default("UTC"),
});
export type SchedulePreviewRequest = z.input<typeof schedulePreviewRequestSchema>;

/** PATCH /api/schedules/:id (an extension): pause or resume. */
export const updateScheduleRequestSchema = z.strictObject({
  paused: z.boolean(),
});
export type UpdateScheduleRequest = z.input<typeof updateScheduleRequestSchema>;

/** The answer of the preview. */
export interface SchedulePreview {
  /** The next NEXT_RUNS_SHOWN fire times from now, ISO 8601 (UTC). */
  nextRuns: string[];
}

/** One fire time of a schedule that a process claimed. */
export interface ScheduleFireView {
  /** The fire time (the cron time, not when the run started). */
  fireAt: string;
  /** When a process claimed it and started its run. */
  claimedAt: string;
  /** Its run; null when none started (see `error`). */
  runId: string | null;
  /** The run's status as it is now (null without a run). */
  runStatus: string | null;
  /**
   * Fired late, at start: no process was running at this fire time (nor at any earlier one since
   * the last fire), so it ran once when one came up rather than once per time missed.
   */
  missed: boolean;
  /** Why no run started (no deployment yet, ...); such a fire is not retried. */
  error: string | null;
}

/** A schedule as GET /api/workflows/:id/schedules lists it. */
export interface ScheduleView {
  id: string;
  workflowId: string;
  cron: string;
  timezone: string;
  input: Record<string, unknown>;
  /** A paused schedule fires nothing; fire times passed while paused are skipped on resume. */
  paused: boolean;
  createdAt: string;
  /** The latest fire time claimed (null before the first). */
  lastFireAt: string | null;
  /** The next NEXT_RUNS_SHOWN fire times from now (as they will be once resumed, when paused). */
  nextRuns: string[];
  /** The latest RECENT_FIRES_SHOWN fires, newest first. */
  fires: ScheduleFireView[];
}
