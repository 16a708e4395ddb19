import "server-only";
import type { PrismaClient } from "@/lib/db";

/** A limit: at most `max` requests in `window` seconds. */
export interface RateLimitRule {
  window: number;
  max: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the window frees up, when refused. */
  retryAfter: number | null;
}

/** Rows older than this are deleted now and then; longer than any rule's window. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * better-auth's rate-limit storage (`rateLimit.customStorage`) in the database, so every process
 * shares the counts: one atomic upsert per key counts the request in a fixed window. Password
 * guesses at sign-in are limited apart, by backoff (sign-in-limits.ts).
 */
export function createRateLimitStorage(prisma: PrismaClient, now: () => number = Date.now) {
  return {
    async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
      const at = now();
      const windowMs = rule.window * 1000;
      const expired = BigInt(at - windowMs);
      const rows = await prisma.$queryRaw<Array<{ count: number; window_start: bigint }>>`
        INSERT INTO "rate_limits" ("key", "count", "window_start") VALUES (${key}, 1, ${BigInt(at)})
        ON CONFLICT ("key") DO UPDATE SET
          "count" = CASE WHEN "rate_limits"."window_start" <= ${expired} THEN 1 ELSE "rate_limits"."count" + 1 END,
          "window_start" = CASE WHEN "rate_limits"."window_start" <= ${expired} THEN ${BigInt(at)} ELSE "rate_limits"."window_start" END
        RETURNING "count", "window_start"`;
      const row = rows[0];
      if (!row) throw new Error("rate limit upsert returned no row");
      const counted = Number(row.count);
      if (counted === 1)
        await prisma.$executeRaw`DELETE FROM "rate_limits" WHERE "window_start" < ${BigInt(at - KEEP_MS)}`;
      if (counted <= rule.max) return { allowed: true, retryAfter: null };
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((Number(row.window_start) + windowMs - at) / 1000)) };
    },
  };
}

export type RateLimitStorage = ReturnType<typeof createRateLimitStorage>;
