import "server-only";
import { auditRetentionDays, startAuditRetention } from "@/lib/audit";
import { processReadCache } from "@/lib/cache";
import { getDatabase } from "@/lib/db";
import { startRunWorkers, type RunWorkers } from "@/lib/runs/durable/run-workers";
import { workerConfigFrom } from "@/lib/runs/durable/worker-config";
import { ScheduleClaims, startScheduler } from "@/lib/schedules";
import { evaluationServices } from "@/lib/evaluations";
import { getRuntime } from "./runtime";

const globalCache = globalThis as typeof globalThis & { __trellisRunWorkers?: Promise<RunWorkers> };

/**
 * Joins this process to the durable run queue (once; Next's dev reloads reuse it): as a worker
 * when TRELLIS_WORKER is on, else only to hand runs over. A worker also fires schedules: every
 * such process runs the scheduler, and each fire time is claimed by exactly one of them.
 * Called at start-up before serving; `stop()` stops the scheduler, then leaves the queue.
 */
export function startRuns(): Promise<RunWorkers> {
  globalCache.__trellisRunWorkers ??= (async () => {
    const database = getDatabase();
    await database.ready;
    const url = database.url;
    if (!url) throw new Error("The database has no connection string for the run queue");
    const runtime = getRuntime();
    const config = workerConfigFrom((name) => process.env[name]);
    const workers = await startRunWorkers({
      runs: runtime.runs,
      repositories: runtime.repositories,
      config,
      url,
      singleProcess: database.backend === "embedded",
    });
    // Runs' reads are served from memory from here on, while the bus hears other processes' changes.
    const unfollow = processReadCache().follow(workers.bus);
    const following: RunWorkers = {
      ...workers,
      async stop() {
        unfollow();
        await workers.stop();
      },
    };
    if (!config.execute) return following;
    const retention = startAuditRetention(
      database.prisma,
      auditRetentionDays(process.env.TRELLIS_AUDIT_RETENTION_DAYS),
    );
    const scheduler = startScheduler({
      claims: new ScheduleClaims(database.prisma),
      workerId: workers.workerId,
      startRun: (schedule) =>
        runtime.runs.start(schedule.workspaceId, schedule.workflowId, schedule.input, {
          target: "active-deployment",
          trigger: { kind: "schedule", scheduleId: schedule.id },
        }),
      startEvaluation: (schedule) =>
        evaluationServices(runtime, database.prisma).evaluations.startScheduled(
          schedule.workspaceId,
          schedule.workflowId,
          schedule.suiteId!,
        ),
    });
    return {
      ...following,
      async stop() {
        retention.stop();
        await scheduler.stop();
        await following.stop();
      },
    };
  })();
  return globalCache.__trellisRunWorkers;
}
