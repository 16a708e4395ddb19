import { isTrellisError, SandboxError, type SandboxErrorCode } from "@/executor";
import type { CappedLimits, SandboxSettings } from "@/sandbox";
import type { FunctionConfig } from "./definition";

/**
 * How a Function block's sandbox ran, as its output (and so its trace) shows it under `sandbox`:
 * the time it waited for a slot, the CPU time it used, and the limits it ran with, flagged when
 * the server's maxima lowered what the block asked for.
 */
export interface SandboxReport {
  queuedMs: number;
  cpuTimeMs?: number;
  timeoutMs: number;
  memoryLimitMb: number;
  timeoutCapped?: true;
  memoryLimitCapped?: true;
}

export function sandboxReport(limits: CappedLimits, queuedMs: number, cpuTimeMs?: number): SandboxReport {
  const report: SandboxReport = {
    queuedMs: Math.round(queuedMs),
    timeoutMs: limits.cpuTimeMs,
    memoryLimitMb: Math.round(limits.memoryBytes / (1024 * 1024)),
  };
  if (cpuTimeMs !== undefined) report.cpuTimeMs = cpuTimeMs;
  if (limits.cpuTimeCapped) report.timeoutCapped = true;
  if (limits.memoryCapped) report.memoryLimitCapped = true;
  return report;
}

const SANDBOX_CODES: ReadonlySet<string> = new Set<SandboxErrorCode>([
  "sandbox_timeout",
  "sandbox_memory",
  "sandbox_output",
  "sandbox_error",
]);

/** The line the block streams while it waits, so a slow start is not a mystery. */
export function waitingNotice(ahead: number, gateLimits: Pick<SandboxSettings, "concurrency" | "memoryMb">): string {
  const queue = ahead === 0 ? "next in line" : `${ahead} ahead in line`;
  return `Waiting for a sandbox slot (${queue}; this server runs at most ${gateLimits.concurrency} at once, ${gateLimits.memoryMb.toLocaleString("en-US")} MB in total)\n`;
}

/**
 * A failed run keeps its report on the failed span, and a limit the block hit after the server
 * lowered it says so: "ran longer than 2000 ms" alone would puzzle whoever set 10000.
 */
export function withSandboxReport(
  error: unknown,
  config: FunctionConfig,
  maxima: Pick<SandboxSettings, "maxMemoryMb" | "maxTimeoutMs">,
  report: SandboxReport,
): unknown {
  if (!isTrellisError(error) || !SANDBOX_CODES.has(error.code)) return error;
  let message = error.message;
  if (error.code === "sandbox_timeout" && report.timeoutCapped) {
    message += ` (the block asks for ${config.timeoutMs} ms; this server allows at most ${maxima.maxTimeoutMs} ms, TRELLIS_SANDBOX_MAX_TIMEOUT_MS)`;
  } else if (error.code === "sandbox_memory" && report.memoryLimitCapped) {
    message += ` (the block asks for ${config.memoryLimitMb} MB; this server allows at most ${maxima.maxMemoryMb} MB, TRELLIS_SANDBOX_MAX_MEMORY_MB)`;
  }
  return new SandboxError(error.code as SandboxErrorCode, message, { partialOutput: { sandbox: report } });
}
