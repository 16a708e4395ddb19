import "server-only";
import type { HealthDetails } from "@/contract";
import { processSandboxGate } from "@/sandbox";
import { eventLoopMonitor } from "./event-loop-monitor";

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** What `--expose-gc` puts on globalThis; absent otherwise. */
const exposedCollector = (): (() => void) | undefined => {
  const gc: unknown = (globalThis as { gc?: unknown }).gc;
  return typeof gc === "function" ? (gc as () => void) : undefined;
};

/**
 * This process's load, read from memory only, so it answers even when the database is slow. With
 * `collect`, a full garbage collection runs first where the process allows it (a soak test telling
 * retained memory from garbage not yet collected); it pauses the process for a few milliseconds.
 */
export function processHealthDetails(
  sources: { executingRuns(): number },
  options: { collect?: boolean } = {},
): HealthDetails {
  const collector = options.collect ? exposedCollector() : undefined;
  collector?.();
  const memory = process.memoryUsage();
  const gate = processSandboxGate();
  const sandboxes = gate.stats();
  return {
    ok: true,
    uptimeS: Math.round(process.uptime()),
    eventLoop: eventLoopMonitor().report(),
    memory: {
      rssMb: megabytes(memory.rss),
      heapUsedMb: megabytes(memory.heapUsed),
      externalMb: megabytes(memory.external),
      collected: collector !== undefined,
    },
    runs: { executing: sources.executingRuns() },
    sandboxes: {
      running: sandboxes.running,
      waiting: sandboxes.waiting,
      reservedMb: sandboxes.reservedMb,
      concurrency: gate.limits.concurrency,
      memoryMb: gate.limits.memoryMb,
    },
  };
}
