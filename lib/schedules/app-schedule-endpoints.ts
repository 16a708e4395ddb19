import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma } from "@/lib/db";
import { scheduleEndpoints } from "./schedule-endpoints";
import { ScheduleRepository } from "./schedule-repository";
import { createScheduleService } from "./schedule-service";

/** The schedule endpoints over the app's database. */
export const appScheduleEndpoints = scheduleEndpoints(
  () => createScheduleService(new ScheduleRepository(getPrisma())),
  auditRequestsTo(getPrisma),
);
