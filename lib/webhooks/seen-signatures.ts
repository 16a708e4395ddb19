import "server-only";
import type { PrismaClient } from "@/lib/db";

/**
 * The timestamped signatures each hook accepted, kept in the database (so a replay to another
 * process is refused too) until their timestamp leaves the tolerance window, after which the
 * clock check refuses them anyway.
 */
export class SeenSignatures {
  constructor(private readonly prisma: PrismaClient) {}

  /** Remembers a signature until `expiresAt`; false when it was already remembered (a replay). Atomic on both databases. */
  async remember(webhookId: string, signature: string, expiresAt: Date, now = new Date()): Promise<boolean> {
    const inserted = await this.prisma.$executeRaw`
      INSERT INTO "webhook_signatures_seen" ("webhook_id", "signature", "expires_at") VALUES (${webhookId}, ${signature}, ${expiresAt})
      ON CONFLICT ("webhook_id", "signature") DO NOTHING`;
    if (inserted === 1)
      await this.prisma.$executeRaw`DELETE FROM "webhook_signatures_seen" WHERE "expires_at" < ${now}`;
    return inserted === 1;
  }
}
