import "server-only";
import { createScheduleRequestSchema, schedulePreviewRequestSchema, updateScheduleRequestSchema } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { endpoint } from "@/lib/http/endpoint";
import { listPaging, timeAndIdPosition } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import type { ScheduleService } from "./schedule-service";

const schedulePages = listPaging("schedules", timeAndIdPosition);
/** A schedule's body is an expression, a zone and start inputs. */
const MAX_SCHEDULE_BYTES = 64 * 1024;

/**
 * The schedule endpoints of docs/CONTRACT.md section 9: create and list under
 * /api/workflows/:id/schedules, delete /api/schedules/:id; and two extensions: PATCH
 * /api/schedules/:id `{ paused }` and POST /api/schedules/preview `{ cron, timezone }` (the
 * form's next five fire times as one types: it changes nothing, so a viewer may call it).
 */
export function scheduleEndpoints(service: () => ScheduleService, audit: AuditRequest) {
  return {
    create: endpoint("createSchedule", async (request, { id }, member) => {
      const body = await readJsonRequest(request, createScheduleRequestSchema, {
        subject: "The schedule",
        maxBytes: MAX_SCHEDULE_BYTES,
      });
      const created = await service().create(member.workspace.id, id, body);
      // The start inputs are left out: they are the workflow's data, which may hold anything.
      await audit(request, member, {
        action: "schedule.create",
        object: { type: "schedule", id: created.id, name: created.cron },
        summary: { after: { workflowId: id, cron: created.cron, timezone: created.timezone } },
      });
      return Response.json(created, { status: 201 });
    }),
    list: endpoint("listSchedules", async (request, { id }, { workspace }) =>
      Response.json(
        schedulePages.answer("schedules", await service().list(workspace.id, id, schedulePages.read(request))),
      ),
    ),
    preview: endpoint("previewSchedule", async (request) => {
      const body = await readJsonRequest(request, schedulePreviewRequestSchema, {
        subject: "The schedule",
        maxBytes: MAX_SCHEDULE_BYTES,
      });
      return Response.json(service().preview(body));
    }),
    update: endpoint("updateSchedule", async (request, { id }, member) => {
      const { paused } = await readJsonRequest(request, updateScheduleRequestSchema, {
        subject: "The change",
        maxBytes: 1024,
      });
      const updated = await service().setPaused(member.workspace.id, id, paused);
      await audit(request, member, {
        action: "schedule.update",
        object: { type: "schedule", id, name: updated.cron },
        summary: { after: { paused } },
      });
      return Response.json(updated);
    }),
    remove: endpoint("deleteSchedule", async (request, { id }, member) => {
      await service().remove(member.workspace.id, id);
      await audit(request, member, { action: "schedule.delete", object: { type: "schedule", id, name: null } });
      return new Response(null, { status: 204 });
    }),
  };
}

export type ScheduleEndpoints = ReturnType<typeof scheduleEndpoints>;
