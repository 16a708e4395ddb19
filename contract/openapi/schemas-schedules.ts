import { z } from "zod";
import type { ListPage } from "../pagination";
import type { SchedulePreview, ScheduleFireView, ScheduleView } from "../schedules";
import type { SameWireType } from "./same-type";
import { pageSchema, timestampSchema } from "./schemas-common";

/** Answers of the schedule endpoints (docs/CONTRACT.md section 9): lib/schedules/schedule-endpoints.ts. */

const nextRunsSchema = z.array(timestampSchema).describe("The next five fire times from now, in UTC.");

export const schedulePreviewSchema = z.object({ nextRuns: nextRunsSchema });

export const scheduleFireSchema = z.object({
  fireAt: timestampSchema.describe("The fire time (the cron time, not when the run started)."),
  claimedAt: timestampSchema.describe("When a process claimed it and started its run."),
  runId: z.string().nullable().describe("Its run; null when none started (see `error`)."),
  runStatus: z.string().nullable().describe("The run's status now; null without a run."),
  missed: z.boolean().describe("Fired late at start, once, for the times missed while no process was running."),
  error: z.string().nullable().describe("Why no run started (the workflow has no deployment yet, ...); not retried."),
});

export const scheduleSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  cron: z.string().describe("5 fields, or 6 with seconds first."),
  timezone: z.string().describe("An IANA time zone name."),
  input: z.record(z.string(), z.unknown()).describe("The start inputs of every run it starts."),
  paused: z.boolean(),
  createdAt: timestampSchema,
  lastFireAt: timestampSchema.nullable(),
  nextRuns: nextRunsSchema,
  fires: z.array(scheduleFireSchema).describe("The latest five fires, newest first."),
});

export const schedulePageSchema = pageSchema("schedules", scheduleSchema);

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof schedulePreviewSchema>, SchedulePreview>,
  SameWireType<z.output<typeof scheduleFireSchema>, ScheduleFireView>,
  SameWireType<z.output<typeof scheduleSchema>, ScheduleView>,
  SameWireType<z.output<typeof schedulePageSchema>, ListPage<"schedules", ScheduleView>>,
] = [true, true, true, true];
void matches;
