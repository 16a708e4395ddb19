import "server-only";
/** Schedules: cron times in a zone that run a workflow's active deployment (docs/CONTRACT.md section 9). */
export { canonicalTimeZone, parseCronSchedule, upcomingFireTimes } from "./cron-schedule";
export type { CronSchedule } from "./cron-schedule";
export { dueFires, firesSince } from "./due-fires";
export type { DueFire } from "./due-fires";
export { FIRES_KEPT, ScheduleClaims } from "./schedule-claims";
export type { ActiveSchedule } from "./schedule-claims";
export { ScheduleRepository } from "./schedule-repository";
export type { NewSchedule, StoredSchedule } from "./schedule-repository";
export { createScheduleService } from "./schedule-service";
export type { ScheduleService } from "./schedule-service";
export { scheduleEndpoints } from "./schedule-endpoints";
export type { ScheduleEndpoints } from "./schedule-endpoints";
export { startScheduler } from "./scheduler";
export { appScheduleEndpoints } from "./app-schedule-endpoints";
export type { Scheduler, SchedulerOptions } from "./scheduler";
