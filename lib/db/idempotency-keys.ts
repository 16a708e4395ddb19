import { WEBHOOK_IDEMPOTENCY_HOURS } from "@/contract";

/** How long an Idempotency-Key answers the request that first used it: a webhook's window, run starts alike. */
export const IDEMPOTENCY_KEY_HOURS = WEBHOOK_IDEMPOTENCY_HOURS;

const HOUR_MS = 60 * 60 * 1000;

/** Keys claimed at or before this moment are no longer remembered. */
export const keyExpiry = (now = Date.now()) => new Date(now - IDEMPOTENCY_KEY_HOURS * HOUR_MS);

/** The request holding an Idempotency-Key. */
export interface KeyHolder {
  id: string;
  receivedAt: Date;
  /** Null while the request holding it is still being answered. */
  status: number | null;
  runId: string | null;
}

/**
 * Where claimed keys are kept, each unique within its scope (a webhook's deliveries, a workflow's
 * run starts): of two claims of one key at once, exactly one inserts its row. The claiming itself
 * (waiting for the holder, taking over an abandoned or expired key) is lib/http/idempotency-claim.ts.
 */
export interface IdempotencyKeyStore {
  /** The new holder's id, or null when another request of the scope holds the key. */
  claim(scopeId: string, key: string): Promise<string | null>;
  keyHolder(scopeId: string, key: string): Promise<KeyHolder | null>;
  /** Lets the key `holderId` holds be claimed again, if it still holds it and was received at or before `receivedBy`. */
  releaseKey(holderId: string, receivedBy: Date): Promise<void>;
}
