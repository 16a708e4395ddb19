/**
 * `npm run worker`: a process that only executes runs (no HTTP). Any number of them, and of web
 * processes, share one PostgreSQL (DATABASE_URL); each takes queued runs within its concurrency
 * limit and resumes the runs of a worker that died. The embedded database belongs to one process:
 * this starts only when no web process has it open (the web process executes runs itself).
 */
import { closeDatabase } from "@/lib/db";
import { activeTracing, processLogger, startTracing } from "@/lib/observability";
import { startRuns } from "@/lib/runtime/start-runs";

process.env.TRELLIS_WORKER = "on";
if (await startTracing()) processLogger().info("exporting traces over OTLP");

const workers = await startRuns();
processLogger().info({ workerId: workers.workerId }, `worker ${workers.workerId} is executing runs`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Runs still executing are left to the lease: another worker resumes them from their checkpoints.
    void workers
      .stop()
      .then(() => closeDatabase())
      // The spans still waiting in the exporter's batch go out before the process ends.
      .then(() => activeTracing()?.shutdown())
      .finally(() => process.exit(0));
  });
}
