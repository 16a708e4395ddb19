import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { keyExpiry, type IdempotencyKeyStore } from "@/lib/db";
import { RequestError } from "./errors";

const MAX_KEY_LENGTH = 255;

/** A claim younger than this is in progress; older, its process died between claiming the key and starting the run. */
export const ABANDONED_CLAIM_MS = 60_000;
/** How long a repeat waits for the first delivery with its key to start its run. */
const WAIT_FOR_FIRST_MS = 15_000;
const POLL_MS = 25;

/** The `Idempotency-Key` header (absent: undefined): 1 to 255 printable ASCII characters, as document uploads take it. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get("idempotency-key");
  if (key === null) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(key)) {
    throw new RequestError(
      "invalid_request",
      `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters.`,
      [{ path: "Idempotency-Key", message: "is not a valid key" }],
    );
  }
  return key;
}

/** Either this request holds the key now (its id), or an earlier one started a run with it. */
export type KeyClaim = { claimedId: string } | { replayOf: string };

/**
 * Claims an Idempotency-Key for a request (a webhook delivery, a run start), relying on the
 * store's unique (scope, key) index: of any number of requests with one key, one inserts its row
 * and the others find it. A finder waits until the holder has started its run and answers that
 * run's id. A holder older than 24 hours, or one that died before starting its run, lets go of the
 * key; a refused holder releases it itself (settle), so the waiting requests try to claim it again.
 */
export async function claimKey(
  store: IdempotencyKeyStore,
  scopeId: string,
  key: string,
  now = () => Date.now(),
): Promise<KeyClaim> {
  const giveUpAt = now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claimedId = await store.claim(scopeId, key);
    if (claimedId) return { claimedId };
    const holder = await store.keyHolder(scopeId, key);
    if (!holder) continue; // released in between: claim again
    if (holder.receivedAt <= keyExpiry(now())) {
      await store.releaseKey(holder.id, keyExpiry(now()));
      continue;
    }
    if (holder.runId) return { replayOf: holder.runId };
    if (holder.status === null && holder.receivedAt.getTime() <= now() - ABANDONED_CLAIM_MS) {
      await store.releaseKey(holder.id, new Date(now() - ABANDONED_CLAIM_MS));
      continue;
    }
    if (now() >= giveUpAt) {
      throw new RequestError(
        "conflict",
        "A request with this Idempotency-Key is still being answered; retry with the same key in a moment.",
        [{ path: "Idempotency-Key", message: "is in use by a request in progress" }],
      );
    }
    await sleep(POLL_MS);
  }
}
