import "server-only";
import { isTrellisError } from "@/executor";
import { parseCronSchedule, type CronSchedule } from "./cron-schedule";
import { dueFires, firesSince } from "./due-fires";
import type { ActiveSchedule, ScheduleClaims } from "./schedule-claims";
import { processLogger } from "@/lib/observability";

export interface SchedulerOptions {
  claims: ScheduleClaims;
  /** Starts the run of one fire (the workflow's active deployment, trigger `schedule`); answers its id. */
  startRun(schedule: ActiveSchedule): Promise<{ runId: string }>;
  /** Starts the evaluation of one fire of a schedule of a suite (the active deployment over it); answers its id. */
  startEvaluation?(schedule: ActiveSchedule): Promise<{ evaluationId: string }>;
  /** This process's worker id, stored with the fires it claims. */
  workerId: string;
  /** The schedules are read again at least this often, so new, paused and deleted ones are seen (default 1,000 ms). */
  refreshMs?: number;
  /** A fire time first seen due later than this after it passed was missed: it runs once, marked so (default 10,000 ms). */
  catchUpMs?: number;
}

export interface Scheduler {
  /** Stops the loop and waits for the pass under way (runs it started go on). */
  stop(): Promise<void>;
}

/** Old fires are deleted this often by each process (few rows; a second process finds nothing to do). */
const PRUNE_EVERY_MS = 60_000;
/** A timer set for a whole second may wake a hair early: land just after it. */
const TIMER_SLACK_MS = 3;

/**
 * The loop that fires schedules, in every process that executes runs. Each pass reads the
 * unpaused schedules, claims each fire time due (schedule-claims.ts: exactly one process wins a
 * time), starts the winner's run of the active deployment, and records the run's id on the fire,
 * or the error when none could start (a workflow not deployed yet is recorded, not retried). The
 * next pass is timed for the soonest fire time to come, and for `refreshMs` at the latest. Every
 * process wakes at the same fire time, so they race for it; the claim decides.
 */
export function startScheduler(options: SchedulerOptions): Scheduler {
  const { claims, workerId } = options;
  const refreshMs = options.refreshMs ?? 1_000;
  const catchUpMs = options.catchUpMs ?? 10_000;
  const parsed = new Map<string, CronSchedule | null>();
  // What was last logged per schedule, so a schedule failing every second logs once, not every second.
  const logged = new Map<string, string>();
  let lastPrune = Date.now();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const logOnce = (scheduleId: string, message: string) => {
    if (logged.get(scheduleId) === message) return;
    logged.set(scheduleId, message);
    processLogger().warn({ scheduleId }, message);
  };

  /** The schedule's cron, parsed once per expression and zone; null (logged) when it no longer parses. */
  const cronOf = (schedule: ActiveSchedule): CronSchedule | null => {
    const key = `${schedule.cron}\u0000${schedule.timezone}`;
    if (!parsed.has(key)) {
      try {
        parsed.set(key, parseCronSchedule(schedule.cron, schedule.timezone));
      } catch (error) {
        parsed.set(key, null);
        logOnce(schedule.id, `not fired: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return parsed.get(key) ?? null;
  };

  const fire = async (schedule: ActiveSchedule, fireAt: Date) => {
    try {
      if (schedule.suiteId !== null) {
        if (!options.startEvaluation) throw new Error("this process cannot start evaluations");
        const { evaluationId } = await options.startEvaluation(schedule);
        await claims.recordEvaluation(schedule.id, fireAt, evaluationId);
      } else {
        const { runId } = await options.startRun(schedule);
        await claims.recordRun(schedule.id, fireAt, runId);
      }
      logged.delete(schedule.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await claims.recordError(schedule.id, fireAt, message);
      logOnce(schedule.id, `no run started (${isTrellisError(error) ? error.code : "error"}): ${message}`);
    }
  };

  /** One pass; answers how long to wait for the next. */
  const pass = async (): Promise<number> => {
    const now = new Date();
    let soonest = now.getTime() + refreshMs;
    for (const schedule of await claims.active()) {
      const cron = cronOf(schedule);
      if (!cron) continue;
      let last = firesSince(schedule);
      for (const due of dueFires(cron, last, now, catchUpMs)) {
        if (stopped) return 0;
        if (await claims.claim(schedule.id, due.fireAt, { missed: due.missed, claimedBy: workerId }))
          await fire(schedule, due.fireAt);
        last = due.fireAt;
      }
      const next = cron.nextAfter(last);
      if (next) soonest = Math.min(soonest, next.getTime());
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await claims.prune();
    }
    return Math.max(0, soonest - Date.now()) + TIMER_SLACK_MS;
  };

  const loop = async () => {
    let wait = refreshMs;
    try {
      wait = await pass();
    } catch (error) {
      processLogger().error({ err: error }, "the scheduler's pass failed");
    }
    if (stopped) return;
    timer = setTimeout(() => {
      current = loop();
    }, wait);
    timer.unref();
  };
  current = loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
