import { z } from "zod";
import { pageSchema } from "./pagination";
import { withoutReservedKeys } from "./reserved-names";
import { timestampSchema } from "./timestamp";

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
  /** A suite of the workflow: each fire evaluates the active deployment over it (docs/CONTRACT.md section 13) instead of starting a run. */
  suiteId: z.string().min(1).optional(),
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

const nextRunsSchema = z.array(timestampSchema).describe("The next five fire times from now, in UTC.");

/** The answer of the preview: the next NEXT_RUNS_SHOWN fire times. */
export const schedulePreviewSchema = z.object({ nextRuns: nextRunsSchema });
export type SchedulePreview = z.infer<typeof schedulePreviewSchema>;

/** One fire time of a schedule that a process claimed. */
export const scheduleFireSchema = z.object({
  fireAt: timestampSchema.describe("The fire time (the cron time, not when the run started)."),
  claimedAt: timestampSchema.describe("When a process claimed it and started its run."),
  runId: z.string().nullable().describe("Its run; null when none started (see `error`)."),
  evaluationId: z.string().nullable().describe("The evaluation it started, for a schedule of a suite; null otherwise."),
  runStatus: z.string().nullable().describe("The run's status now; null without a run."),
  /**
   * No process was running at this fire time (nor at any earlier one since the last fire), so it
   * ran once when one came up rather than once per time missed.
   */
  missed: z.boolean().describe("Fired late at start, once, for the times missed while no process was running."),
  error: z.string().nullable().describe("Why no run started (the workflow has no deployment yet, ...); not retried."),
});
export type ScheduleFireView = z.infer<typeof scheduleFireSchema>;

/** A schedule as GET /api/workflows/:id/schedules lists it. */
export const scheduleSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  cron: z.string().describe("5 fields, or 6 with seconds first."),
  timezone: z.string().describe("An IANA time zone name."),
  input: z.record(z.string(), z.unknown()).describe("The start inputs of every run it starts."),
  suiteId: z.string().nullable().describe("Set when each fire evaluates the active deployment over this suite."),
  /** A paused schedule fires nothing; fire times passed while paused are skipped on resume. */
  paused: z.boolean(),
  createdAt: timestampSchema,
  /** The latest fire time claimed (null before the first). */
  lastFireAt: timestampSchema.nullable(),
  /** As they will be once resumed, when paused. */
  nextRuns: nextRunsSchema,
  fires: z.array(scheduleFireSchema).describe("The latest five fires, newest first."),
});
export type ScheduleView = z.infer<typeof scheduleSchema>;

export const schedulePageSchema = pageSchema("schedules", scheduleSchema);
