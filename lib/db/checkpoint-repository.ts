import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { BlockCheckpoint } from "@/executor";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/**
 * Block checkpoints of durable runs. What is stored in clear is the masked result; a result that
 * held a secret value is also kept sealed (AES-256-GCM with the secret key, bound to its run and
 * key), because a resumed run needs the real value and the database must not show it.
 */
export class CheckpointRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly secretKey: () => Buffer,
  ) {}

  /** The row that stores a finished block's result (written by the RunWriter with the run's events). */
  row(
    runId: string,
    key: string,
    checkpoint: BlockCheckpoint,
    masked: BlockCheckpoint,
  ): { key: string; data: unknown; sealed: string | null } {
    const clear = JSON.stringify(checkpoint);
    return { key, data: masked, sealed: clear === JSON.stringify(masked) ? null : this.seal(runId, key, clear) };
  }

  /** A block memo's row (a model answer or tool result kept between attempts); its key holds a `|`. */
  memoRow(
    runId: string,
    key: string,
    value: unknown,
    masked: unknown,
  ): { key: string; data: unknown; sealed: string | null } {
    const clear = JSON.stringify({ memo: value });
    const shown = { memo: masked };
    return { key, data: shown, sealed: clear === JSON.stringify(shown) ? null : this.seal(runId, key, clear) };
  }

  /** What earlier attempts at a run stored: finished blocks, and block memos (keys with a `|`). */
  async load(runId: string): Promise<{ checkpoints: Map<string, BlockCheckpoint>; memos: Map<string, unknown> }> {
    const rows = await this.prisma.blockCheckpoint.findMany({ where: { runId } });
    const checkpoints = new Map<string, BlockCheckpoint>();
    const memos = new Map<string, unknown>();
    for (const row of rows) {
      const value: unknown = row.sealed ? JSON.parse(this.open(runId, row.key, row.sealed)) : row.data;
      if (row.key.includes("|")) memos.set(row.key, (value as { memo: unknown }).memo);
      else checkpoints.set(row.key, value as BlockCheckpoint);
    }
    return { checkpoints, memos };
  }

  /**
   * A finished run's completed block results for a run from a block to reuse (memos and handled
   * failures left out): each with the masked form stored beside it, so the new run can mask the
   * secret values it holds.
   */
  async loadCompleted(
    runId: string,
  ): Promise<Map<string, { checkpoint: Extract<BlockCheckpoint, { status: "completed" }>; masked: unknown }>> {
    const rows = await this.prisma.blockCheckpoint.findMany({ where: { runId, NOT: { key: { contains: "|" } } } });
    const results = new Map<
      string,
      { checkpoint: Extract<BlockCheckpoint, { status: "completed" }>; masked: unknown }
    >();
    for (const row of rows) {
      const checkpoint = (row.sealed ? JSON.parse(this.open(runId, row.key, row.sealed)) : row.data) as BlockCheckpoint;
      if (checkpoint.status === "completed") results.set(row.key, { checkpoint, masked: row.data });
    }
    return results;
  }

  private seal(runId: string, key: string, text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.secretKey(), iv);
    cipher.setAAD(Buffer.from(`checkpoint:${runId}:${key}`, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
  }

  private open(runId: string, key: string, sealed: string): string {
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.secretKey(), bytes.subarray(0, 12));
    decipher.setAAD(Buffer.from(`checkpoint:${runId}:${key}`, "utf8"));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  }
}
