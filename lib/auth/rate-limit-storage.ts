import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
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

/**
 * What the auth handler knows about the request better-auth is limiting: the account a sign-in
 * names (better-auth keys its limits by IP and path only), and the keys this request counted.
 */
export interface RateLimitScope {
  /** `sign-in|<email>`: counted besides the IP's key, so changing IPs does not reset an account's budget. */
  accountKey?: string;
  consumed: string[];
}

export const rateLimitScope = new AsyncLocalStorage<RateLimitScope>();

/** Failed sign-ins per account (email), from any IP. */
export const ACCOUNT_SIGN_IN_RULE: RateLimitRule = { window: 60, max: 5 };

/** Rows older than this are deleted now and then; longer than any rule's window. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * better-auth's rate-limit storage (`rateLimit.customStorage`) in the database, so every process
 * shares the counts: one atomic upsert per key counts the request in a fixed window. When the
 * request is a sign-in, the account's key is counted too and both must allow it.
 */
export function createRateLimitStorage(prisma: PrismaClient, now: () => number = Date.now) {
  async function count(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
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
    if (counted === 1) await prisma.$executeRaw`DELETE FROM "rate_limits" WHERE "window_start" < ${BigInt(at - KEEP_MS)}`;
    if (counted <= rule.max) return { allowed: true, retryAfter: null };
    return { allowed: false, retryAfter: Math.max(1, Math.ceil((Number(row.window_start) + windowMs - at) / 1000)) };
  }

  return {
    async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
      const scope = rateLimitScope.getStore();
      const byKey = await count(key, rule);
      if (!byKey.allowed) return byKey;
      scope?.consumed.push(key);
      if (!scope?.accountKey) return byKey;
      const byAccount = await count(scope.accountKey, ACCOUNT_SIGN_IN_RULE);
      if (byAccount.allowed) scope.consumed.push(scope.accountKey);
      return byAccount;
    },
    /** Takes back one count from each key: a successful sign-in does not use up the budget for failures. */
    async refund(keys: readonly string[]): Promise<void> {
      if (keys.length === 0) return;
      await prisma.$executeRaw`UPDATE "rate_limits" SET "count" = GREATEST("count" - 1, 0) WHERE "key" = ANY(${[...keys]})`;
    },
  };
}

export type RateLimitStorage = ReturnType<typeof createRateLimitStorage>;
