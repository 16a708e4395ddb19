import "server-only";
import type { PrismaClient } from "@/lib/db";

/**
 * Password guesses, limited by backoff rather than by a fixed window: a key (a client address, an
 * account, a chat, a visitor) may fail `freeFailures` times; from that failure on, each one makes
 * the key wait before its next guess is even checked, the wait doubling from `firstDelayS` up to
 * `maxDelayS`. A waiting key's guesses are refused unchecked (429 with Retry-After) and do not
 * count, so the right password passes as soon as the wait is over: a lockout is never forever.
 * Counted in the database (`attempt_limits`), so every process shares the counts.
 */
export interface BackoffRule {
  freeFailures: number;
  firstDelayS: number;
  maxDelayS: number;
  /** A key whose last failure is older than this starts again from nothing. */
  forgetAfterS: number;
}

export interface LimitedKey {
  key: string;
  rule: BackoffRule;
}

/** A guess let through: its keys, each with the wait its failure started (null: none), for `succeeded` to take back. */
export type AttemptTicket = ReadonlyArray<{ key: string; waitUntil: bigint | null }>;

export type AttemptDecision =
  { allowed: true; ticket: AttemptTicket } | { allowed: false; retryAfterS: number; key: string };

/** The wait after a key's `failures`-th failure, in milliseconds: none before the `freeFailures`-th, then doubling. */
export function backoffDelayMs(rule: BackoffRule, failures: number): number {
  const over = failures - rule.freeFailures;
  if (over < 0) return 0;
  // 2^40 seconds is past any cap; stop the exponent there so the number stays finite.
  return Math.min(rule.firstDelayS * 2 ** Math.min(over, 40), rule.maxDelayS) * 1000;
}

/** Rows whose last failure is older than this are deleted now and then; longer than any rule's memory. */
const KEEP_MS = 24 * 3600 * 1000;

export function createAttemptLimiter(prisma: PrismaClient, now: () => number = Date.now) {
  /**
   * Counts a guess on one key as a failure before it is checked (so a burst of parallel guesses
   * cannot all slip in before the first failure is written), unless the key is waiting: then
   * nothing is counted and the wait is answered. One statement, atomic on both databases.
   */
  async function take({
    key,
    rule,
  }: LimitedKey): Promise<{ key: string; waitUntil: bigint | null } | { retryAfterS: number }> {
    const at = now();
    const forgotten = BigInt(at - rule.forgetAfterS * 1000);
    const rows = await prisma.$queryRaw<Array<{ failures: number }>>`
      INSERT INTO "attempt_limits" ("key", "failures", "last_failure_at", "blocked_until") VALUES (${key}, 1, ${BigInt(at)}, 0)
      ON CONFLICT ("key") DO UPDATE SET
        "failures" = CASE WHEN "attempt_limits"."last_failure_at" <= ${forgotten} THEN 1 ELSE "attempt_limits"."failures" + 1 END,
        "last_failure_at" = ${BigInt(at)}
      WHERE "attempt_limits"."blocked_until" <= ${BigInt(at)}
      RETURNING "failures"`;
    const row = rows[0];
    if (row) {
      const failures = Number(row.failures);
      const delay = backoffDelayMs(rule, failures);
      const waitUntil = delay > 0 ? BigInt(at + delay) : null;
      if (waitUntil !== null)
        await prisma.$executeRaw`UPDATE "attempt_limits" SET "blocked_until" = GREATEST("blocked_until", ${waitUntil}) WHERE "key" = ${key}`;
      if (failures === 1)
        await prisma.$executeRaw`DELETE FROM "attempt_limits" WHERE "last_failure_at" < ${BigInt(at - KEEP_MS)}`;
      return { key, waitUntil };
    }
    const blocked = await prisma.$queryRaw<
      Array<{ blocked_until: bigint }>
    >`SELECT "blocked_until" FROM "attempt_limits" WHERE "key" = ${key}`;
    const until = Number(blocked[0]?.blocked_until ?? at);
    return { retryAfterS: Math.max(1, Math.ceil((until - at) / 1000)) };
  }

  /**
   * Takes back what a guess counted: its failure, and the wait that failure started unless a later
   * failure (someone else's guess) has lengthened it since.
   */
  async function refund(ticket: AttemptTicket): Promise<void> {
    for (const { key, waitUntil } of ticket) {
      await prisma.$executeRaw`
        UPDATE "attempt_limits" SET
          "failures" = GREATEST("failures" - 1, 0),
          "blocked_until" = CASE WHEN "blocked_until" = ${waitUntil ?? -1n} THEN 0 ELSE "blocked_until" END
        WHERE "key" = ${key}`;
    }
  }

  return {
    /**
     * Takes a guess on every key, in order; the first key that is waiting refuses it (and the
     * keys already taken are refunded, since the guess is not checked). When allowed, the guess
     * is counted as a failure on every key until `succeeded` takes it back.
     */
    async attempt(keys: readonly LimitedKey[]): Promise<AttemptDecision> {
      const ticket: Array<{ key: string; waitUntil: bigint | null }> = [];
      for (const limited of keys) {
        const taken = await take(limited);
        if ("retryAfterS" in taken) {
          await refund(ticket);
          return { allowed: false, retryAfterS: taken.retryAfterS, key: limited.key };
        }
        ticket.push(taken);
      }
      return { allowed: true, ticket };
    },
    /** The guess was right (or was never checked): it is not a failure. Earlier failures stay counted. */
    succeeded: refund,
  };
}

export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
