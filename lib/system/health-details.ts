import "server-only";
import type { HealthDetails } from "@/contract";
import { processSandboxGate } from "@/sandbox";
import { eventLoopMonitor } from "./event-loop-monitor";

const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** This process's load, read from memory only, so it answers even when the database is slow. */
export function processHealthDetails(sources: { executingRuns(): number }): HealthDetails {
  const memory = process.memoryUsage();
  const gate = processSandboxGate();
  const sandboxes = gate.stats();
  return {
    ok: true,
    uptimeS: Math.round(process.uptime()),
    eventLoop: eventLoopMonitor().report(),
    memory: { rssMb: megabytes(memory.rss), heapUsedMb: megabytes(memory.heapUsed), externalMb: megabytes(memory.external) },
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
