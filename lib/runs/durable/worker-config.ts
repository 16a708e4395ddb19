import "server-only";
import type { RunQueueLimits } from "./run-queue";

/** How this process takes part in executing runs (docs/CONTRACT.md section 4, README "Workers"). */
export interface WorkerConfig {
  /** TRELLIS_WORKER: `on` (default) executes runs here; `off` only serves HTTP. */
  execute: boolean;
  limits: RunQueueLimits;
  /** TRELLIS_WORKER_LEASE_MS: a worker silent for longer is dead and its runs are resumed elsewhere. */
  leaseMs: number;
  /** TRELLIS_RUN_TIMEOUT_MS: a run's time limit (default one hour). */
  runTimeoutMs: number;
}

function whole(
  env: (name: string) => string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env(name)?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  return value;
}

export function workerConfigFrom(env: (name: string) => string | undefined): WorkerConfig {
  const mode = (env("TRELLIS_WORKER") ?? "on").trim().toLowerCase();
  if (mode !== "on" && mode !== "off") throw new Error(`TRELLIS_WORKER must be "on" or "off", not "${mode}"`);
  return {
    execute: mode === "on",
    limits: {
      perProcess: whole(env, "TRELLIS_WORKER_CONCURRENCY", 64, 1, 10_000),
      perWorkspace: whole(env, "TRELLIS_WORKSPACE_CONCURRENCY", 64, 1, 10_000),
      pollMs: whole(env, "TRELLIS_QUEUE_POLL_MS", 50, 5, 60_000),
    },
    leaseMs: whole(env, "TRELLIS_WORKER_LEASE_MS", 15_000, 1_000, 3_600_000),
    runTimeoutMs: whole(env, "TRELLIS_RUN_TIMEOUT_MS", 3_600_000, 1_000, 7 * 86_400_000),
  };
}
