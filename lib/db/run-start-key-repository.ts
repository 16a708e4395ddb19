import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { keyExpiry, type IdempotencyKeyStore, type KeyHolder } from "./idempotency-keys";

/**
 * The Idempotency-Keys of run starts (POST /api/workflows/:id/runs and /execute), unique per
 * workflow. A claim also deletes the workflow's keys past the window, so the table holds at most a
 * day of keyed starts.
 */
export class RunStartKeyRepository implements IdempotencyKeyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async claim(workflowId: string, key: string): Promise<string | null> {
    const [, claimed] = await this.prisma.$transaction([
      this.prisma.runStartKey.deleteMany({ where: { workflowId, receivedAt: { lte: keyExpiry() } } }),
      this.prisma.runStartKey.createManyAndReturn({
        data: [{ workflowId, idempotencyKey: key }],
        skipDuplicates: true,
        select: { id: true },
      }),
    ]);
    return claimed[0]?.id ?? null;
  }

  keyHolder(workflowId: string, key: string): Promise<KeyHolder | null> {
    return this.prisma.runStartKey.findUnique({
      where: { workflowId_idempotencyKey: { workflowId, idempotencyKey: key } },
      select: { id: true, receivedAt: true, status: true, runId: true },
    });
  }

  async releaseKey(holderId: string, receivedBy: Date): Promise<void> {
    await this.prisma.runStartKey.deleteMany({ where: { id: holderId, receivedAt: { lte: receivedBy } } });
  }

  /** The start holding the key began its run: a repeat of the key answers it. */
  async settle(holderId: string, status: number, runId: string): Promise<void> {
    await this.prisma.runStartKey.update({ where: { id: holderId }, data: { status, runId } });
  }

  /** The start holding the key was refused (nothing ran): the key is free for a retry. */
  async release(holderId: string): Promise<void> {
    await this.prisma.runStartKey.deleteMany({ where: { id: holderId } });
  }
}
