import "server-only";
import type { SchedulePreview, ScheduleView } from "@/contract";
import type { KeysetPage, KeysetResult, TimeAndId } from "@/lib/db";
import { parseCronSchedule, upcomingFireTimes } from "./cron-schedule";
import type { NewSchedule, ScheduleRepository, StoredSchedule } from "./schedule-repository";

/** A create request once its schema has applied the defaults. */
type CheckedCreateRequest = NewSchedule;

/**
 * Creating, listing, pausing and deleting schedules, and the preview of an expression. Every
 * expression is checked by parseCronSchedule before anything is stored, so a stored schedule
 * always parses; its `nextRuns` are computed when it is shown.
 */
export function createScheduleService(schedules: ScheduleRepository, clock: () => Date = () => new Date()) {
  const view = (stored: StoredSchedule): ScheduleView => {
    let nextRuns: string[] = [];
    try {
      nextRuns = upcomingFireTimes(parseCronSchedule(stored.cron, stored.timezone, clock()), clock());
    } catch {
      // Stored before a rule it now breaks (a zone gone from the runtime's database): it fires nothing, shows nothing to come.
    }
    return { ...stored, nextRuns };
  };
  return {
    /** @throws RequestError 400 naming a bad expression or zone; NotFoundError for a workflow not in the workspace */
    async create(workspaceId: string, workflowId: string, request: CheckedCreateRequest): Promise<ScheduleView> {
      const schedule = parseCronSchedule(request.cron, request.timezone, clock());
      return view(
        await schedules.create(workspaceId, workflowId, {
          cron: schedule.cron,
          timezone: schedule.timezone,
          input: request.input,
          ...(request.suiteId !== undefined ? { suiteId: request.suiteId } : {}),
        }),
      );
    },
    /** The next fire times of an expression, or the 400 create would answer. */
    preview(request: { cron: string; timezone: string }): SchedulePreview {
      return { nextRuns: upcomingFireTimes(parseCronSchedule(request.cron, request.timezone, clock()), clock()) };
    },
    async list(
      workspaceId: string,
      workflowId: string,
      page: KeysetPage<TimeAndId>,
    ): Promise<KeysetResult<ScheduleView, TimeAndId>> {
      const result = await schedules.list(workspaceId, workflowId, page);
      return { items: result.items.map(view), next: result.next };
    },
    async setPaused(workspaceId: string, id: string, paused: boolean): Promise<ScheduleView> {
      return view(await schedules.setPaused(workspaceId, id, paused));
    },
    remove: (workspaceId: string, id: string): Promise<void> => schedules.remove(workspaceId, id),
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
