import { createScheduleRequestSchema, schedulePreviewRequestSchema, updateScheduleRequestSchema } from "../schedules";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import { schedulePageSchema, schedulePreviewSchema, scheduleSchema } from "./schemas-schedules";

/** Schedules (docs/CONTRACT.md section 9): lib/schedules/schedule-endpoints.ts. */

const workflowId = pathParameter("id", "The workflow's id.");
const scheduleId = pathParameter("id", "The schedule's id.");
const CRON_RULES =
  "`cron` has 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; `timezone` is an IANA name (default UTC). A malformed expression, one that never fires (February 30), another number of fields or an unknown zone is 400 `invalid_request` naming it.";

export const SCHEDULE_OPERATIONS = [
  {
    operationId: "listSchedules",
    method: "GET",
    path: "/api/workflows/{id}/schedules",
    tag: "Deployments",
    summary: "List a workflow's schedules, newest first",
    access: "member",
    role: "viewer",
    parameters: [workflowId, ...PAGE_PARAMETERS],
    answers: [
      {
        status: 200,
        description: "A page of schedules, each with its next five fire times and latest fires.",
        schema: schedulePageSchema,
      },
    ],
    errors: [404],
  },
  {
    operationId: "createSchedule",
    method: "POST",
    path: "/api/workflows/{id}/schedules",
    tag: "Deployments",
    summary: "Run the active deployment at cron times",
    description: `${CRON_RULES} Each fire time runs once across every worker process; a time missed while no process was running runs once at start, marked \`missed\`.`,
    access: "member",
    role: "editor",
    parameters: [workflowId],
    request: {
      schema: createScheduleRequestSchema,
      required: true,
      example: { cron: "0 9 * * 1-5", timezone: "Europe/Paris", input: { topic: "news" } },
    },
    answers: [{ status: 201, description: "The schedule, with its next five fire times.", schema: scheduleSchema }],
    errors: [404],
  },
  {
    operationId: "previewSchedule",
    method: "POST",
    path: "/api/schedules/preview",
    tag: "Deployments",
    summary: "The next five fire times of an expression (an extension)",
    description: `Stores nothing: what a form shows as one types. ${CRON_RULES}`,
    access: "member",
    role: "viewer",
    request: {
      schema: schedulePreviewRequestSchema,
      required: true,
      example: { cron: "*/30 * * * * *", timezone: "UTC" },
    },
    answers: [{ status: 200, description: "The next five fire times.", schema: schedulePreviewSchema }],
  },
  {
    operationId: "updateSchedule",
    method: "PATCH",
    path: "/api/schedules/{id}",
    tag: "Deployments",
    summary: "Pause or resume a schedule (an extension)",
    description:
      "A paused schedule fires nothing; on resume, the fire times passed while paused are skipped, not run late.",
    access: "member",
    role: "editor",
    parameters: [scheduleId],
    request: { schema: updateScheduleRequestSchema, required: true, example: { paused: true } },
    answers: [{ status: 200, description: "The schedule.", schema: scheduleSchema }],
    errors: [404],
  },
  {
    operationId: "deleteSchedule",
    method: "DELETE",
    path: "/api/schedules/{id}",
    tag: "Deployments",
    summary: "Delete a schedule (its runs stay)",
    access: "member",
    role: "editor",
    parameters: [scheduleId],
    answers: [{ status: 204, description: "Deleted." }],
    errors: [404],
  },
] as const satisfies readonly ApiOperation[];
