import { availableParallelism } from "node:os";
import { MIN_SANDBOX_MEMORY_MB, SANDBOX_OVERHEAD_MB } from "./sandbox-footprint";

/** The operator's bounds on Function sandboxes, for the whole process (README, docs/sandbox-and-outbound.md). */
export interface SandboxSettings {
  /** TRELLIS_SANDBOX_CONCURRENCY: sandboxes running at once; more wait their turn. */
  concurrency: number;
  /** TRELLIS_SANDBOX_MEMORY_MB: memory reserved by the sandboxes running at once (heap limits plus each worker's overhead). */
  memoryMb: number;
  /** TRELLIS_SANDBOX_MAX_MEMORY_MB: the largest QuickJS heap one sandbox gets; a block asking more gets this. */
  maxMemoryMb: number;
  /** TRELLIS_SANDBOX_MAX_TIMEOUT_MS: the largest CPU time limit one sandbox gets; a block asking more gets this. */
  maxTimeoutMs: number;
  /** TRELLIS_SANDBOX_PYTHON_WARM: keep one Python worker loaded for the next Python run (on by default). */
  pythonWarm: boolean;
}

export type EnvironmentReader = (name: string) => string | undefined;

export const DEFAULT_SANDBOX_MEMORY_MB = 1024;
export const DEFAULT_SANDBOX_MAX_MEMORY_MB = 256;
export const DEFAULT_SANDBOX_MAX_TIMEOUT_MS = 60_000;

function whole(env: EnvironmentReader, name: string, min: number, max: number): number | undefined {
  const raw = env(name)?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${raw}"`);
  return value;
}

/**
 * Reads the sandbox settings; an invalid value throws an error naming its variable. `cores` sets
 * the default concurrency: sandboxes are CPU-bound threads, and more of them than cores only
 * makes each slower.
 */
function onOff(env: EnvironmentReader, name: string, fallback: boolean): boolean {
  const raw = env(name)?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === "on" || raw === "1" || raw === "true") return true;
  if (raw === "off" || raw === "0" || raw === "false") return false;
  throw new Error(`${name} must be on or off, not "${env(name)}"`);
}

export function sandboxSettingsFrom(env: EnvironmentReader, cores: number = availableParallelism()): SandboxSettings {
  const smallestTotal = SANDBOX_OVERHEAD_MB + MIN_SANDBOX_MEMORY_MB;
  const concurrency = whole(env, "TRELLIS_SANDBOX_CONCURRENCY", 1, 1_024) ?? Math.max(2, cores);
  const memoryMb = whole(env, "TRELLIS_SANDBOX_MEMORY_MB", smallestTotal, 1_048_576) ?? DEFAULT_SANDBOX_MEMORY_MB;
  const maxMemoryMb = whole(env, "TRELLIS_SANDBOX_MAX_MEMORY_MB", MIN_SANDBOX_MEMORY_MB, 4_000);
  const maxTimeoutMs = whole(env, "TRELLIS_SANDBOX_MAX_TIMEOUT_MS", 10, 3_600_000) ?? DEFAULT_SANDBOX_MAX_TIMEOUT_MS;
  // One sandbox at the largest size must fit in the total, or a block asking for it would wait forever.
  const largestFitting = memoryMb - SANDBOX_OVERHEAD_MB;
  if (maxMemoryMb !== undefined && maxMemoryMb > largestFitting) {
    throw new Error(
      `TRELLIS_SANDBOX_MAX_MEMORY_MB (${maxMemoryMb}) plus a sandbox's overhead (${SANDBOX_OVERHEAD_MB} MB) must fit in TRELLIS_SANDBOX_MEMORY_MB (${memoryMb}): lower the first or raise the second`,
    );
  }
  return {
    concurrency,
    memoryMb,
    maxMemoryMb: maxMemoryMb ?? Math.min(DEFAULT_SANDBOX_MAX_MEMORY_MB, largestFitting),
    maxTimeoutMs,
    pythonWarm: onOff(env, "TRELLIS_SANDBOX_PYTHON_WARM", true),
  };
}

/** Limits as a sandbox runs them, after the operator's maxima. */
export interface CappedLimits {
  cpuTimeMs: number;
  memoryBytes: number;
  /** The request asked for more CPU time than TRELLIS_SANDBOX_MAX_TIMEOUT_MS. */
  cpuTimeCapped: boolean;
  /** The request asked for a larger heap than TRELLIS_SANDBOX_MAX_MEMORY_MB. */
  memoryCapped: boolean;
}

/** A request above the maxima gets the maxima, and says so. */
export function capSandboxLimits(
  requested: { cpuTimeMs: number; memoryBytes: number },
  settings: Pick<SandboxSettings, "maxMemoryMb" | "maxTimeoutMs">,
): CappedLimits {
  const maxMemoryBytes = settings.maxMemoryMb * 1024 * 1024;
  return {
    cpuTimeMs: Math.min(requested.cpuTimeMs, settings.maxTimeoutMs),
    memoryBytes: Math.min(requested.memoryBytes, maxMemoryBytes),
    cpuTimeCapped: requested.cpuTimeMs > settings.maxTimeoutMs,
    memoryCapped: requested.memoryBytes > maxMemoryBytes,
  };
}
