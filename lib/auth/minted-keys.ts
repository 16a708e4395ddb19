import "server-only";
import type { PrismaClient } from "@/lib/db";

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Revokes every key minted by `keyId`, at any depth (a key a minted key made, ...). Repeated
 * until a pass finds nothing left: a key being minted by a descendant while the first pass ran
 * holds that descendant's row lock (createApiKey), so the first pass waits for it and the next
 * pass, with a fresh snapshot, sees the new key; any minting after that finds its parent revoked.
 */
export async function revokeMintedKeys(tx: Transaction, keyId: string, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const revoked = await tx.$executeRaw`
      WITH RECURSIVE minted AS (
        SELECT id FROM api_keys WHERE minted_by_key_id = ${keyId}
        UNION
        SELECT k.id FROM api_keys k JOIN minted m ON k.minted_by_key_id = m.id
      )
      UPDATE api_keys SET revoked_at = ${now} WHERE id IN (SELECT id FROM minted) AND revoked_at IS NULL`;
    if (revoked === 0) return total;
    total += revoked;
  }
}
