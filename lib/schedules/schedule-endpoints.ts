import "server-only";
import { createScheduleRequestSchema, schedulePreviewRequestSchema, updateScheduleRequestSchema } from "@/contract";
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
export function scheduleEndpoints(service: () => ScheduleService) {
  return {
    create: endpoint("createSchedule", async (request, { id }, { workspace }) => {
      const body = await readJsonRequest(request, createScheduleRequestSchema, {
        subject: "The schedule",
        maxBytes: MAX_SCHEDULE_BYTES,
      });
      return Response.json(await service().create(workspace.id, id, body), { status: 201 });
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
    update: endpoint("updateSchedule", async (request, { id }, { workspace }) => {
      const { paused } = await readJsonRequest(request, updateScheduleRequestSchema, {
        subject: "The change",
        maxBytes: 1024,
      });
      return Response.json(await service().setPaused(workspace.id, id, paused));
    }),
    remove: endpoint("deleteSchedule", async (_request, { id }, { workspace }) => {
      await service().remove(workspace.id, id);
      return new Response(null, { status: 204 });
    }),
  };
}

export type ScheduleEndpoints = ReturnType<typeof scheduleEndpoints>;
