import "server-only";
import { getPrisma } from "@/lib/db";
import { processMetrics, type TrellisMetrics } from "@/lib/observability";
import { workerConfigFrom } from "@/lib/runs/durable/worker-config";
import { builtRuntime } from "@/lib/runtime/runtime";
import { processSandboxGate } from "@/sandbox";
import { registerProcessGauges } from "./process-gauges";

const count = (rows: Array<{ count: number | bigint }>) => Number(rows[0]?.count ?? 0);

/**
 * This process's metrics with the gauges read at scrape time over the app's database. Called at
 * start (instrumentation.ts), so the sandboxes' waits are counted from the first one, and by the
 * metrics endpoint.
 */
export function appMetrics(): TrellisMetrics {
  const metrics = processMetrics();
  const leaseMs = workerConfigFrom((name) => process.env[name]).leaseMs;
  registerProcessGauges(metrics, {
    queueDepth: async () =>
      count(await getPrisma().$queryRaw`SELECT count(*)::int AS count FROM runs WHERE status = 'queued'`),
    workerLeases: async () =>
      count(
        await getPrisma().$queryRaw`SELECT count(*)::int AS count FROM workers
          WHERE heartbeat_at > now() - (${leaseMs}::int * interval '1 millisecond')`,
      ),
    knowledgeQueue: async () => {
      const rows = await getPrisma().$queryRaw<Array<{ status: string; count: number }>>`
        SELECT status, count(*)::int AS count FROM knowledge_documents
        WHERE status IN ('pending', 'processing') GROUP BY status`;
      const of = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
      return { pending: of("pending"), processing: of("processing") };
    },
    // Read only where runs execute: a scrape never builds the runtime.
    liveRuns: () => builtRuntime()?.runs.liveRunIds().length ?? 0,
    sandbox: processSandboxGate(),
  });
  return metrics;
}
