import "server-only";
import { AUDIT_RETENTION_DEFAULT_DAYS } from "@/contract";
import type { PrismaClient } from "@/lib/db";
import { processLogger } from "@/lib/observability";

/**
 * The one deletion the audit log allows: entries older than the operator's retention
 * (TRELLIS_AUDIT_RETENTION_DAYS, default 365). The table's trigger lets a DELETE through only in a
 * transaction that declared itself the sweep and only for rows older than the cutoff it declared,
 * so no other code path (nor a mistaken cutoff in this one) removes a recent entry.
 */

const DAY_MS = 86_400_000;

/** TRELLIS_AUDIT_RETENTION_DAYS as a whole number of days (at least 1); the default when unset. */
export function auditRetentionDays(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return AUDIT_RETENTION_DEFAULT_DAYS;
  const days = Number(value.trim());
  if (!Number.isInteger(days) || days < 1)
    throw new Error(`TRELLIS_AUDIT_RETENTION_DAYS must be a whole number of days, 1 or more; got "${value}".`);
  return days;
}

/** Deletes the entries older than `days` before `now`; answers how many. Safe on several processes at once. */
export async function sweepAuditLog(prisma: PrismaClient, days: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  return prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT set_config('trellis.audit_retention', 'sweep', true), set_config('trellis.audit_cutoff', ${cutoff}, true)`;
    return tx.$executeRaw`DELETE FROM audit_entries WHERE at < ${cutoff}::timestamptz`;
  });
}

/** How often a process sweeps: the log is read in days, so an hour late changes nothing. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/**
 * The first sweep waits out the start: on the embedded database every statement takes turns, and the
 * durable engine's own migrations at start kept the sweep's transaction from starting in time.
 */
const FIRST_SWEEP_AFTER_MS = 60 * 1000;

/** Sweeps a minute after start and every hour until stopped; a failed sweep is logged and tried again at the next. */
export function startAuditRetention(
  prisma: PrismaClient,
  days: number,
  firstAfterMs = FIRST_SWEEP_AFTER_MS,
): { stop(): void } {
  const sweep = () =>
    sweepAuditLog(prisma, days).catch((error: unknown) => {
      processLogger().error(
        `audit log retention sweep failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  let every: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    void sweep();
    every = setInterval(() => void sweep(), SWEEP_EVERY_MS);
    every.unref();
  }, firstAfterMs);
  first.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}
