import "server-only";
import { webhookPath, type WebhookSummary } from "@/contract";
import {
  afterTimeAndId,
  assertWorkflowInWorkspace,
  capabilityId,
  decryptSecret,
  encryptSecret,
  keysetResult,
  NotFoundError,
  timeAndIdOf,
  type KeysetPage,
  type KeysetResult,
  type PrismaClient,
  type TimeAndId,
} from "@/lib/db";

/** A hook as a delivery needs it: where it runs, how it answers, and its secret decrypted (null: no signature asked). */
export interface ReceivingWebhook {
  id: string;
  workspaceId: string;
  workflowId: string;
  wait: boolean;
  secret: string | null;
}

interface WebhookRow {
  id: string;
  workflowId: string;
  secretCiphertext: Uint8Array | null;
  wait: boolean;
  createdAt: Date;
}

const summaryColumns = { id: true, workflowId: true, secretCiphertext: true, wait: true, createdAt: true } as const;

/**
 * The name a hook's secret is sealed under (the cipher's authenticated data): a ciphertext copied
 * to another hook's row fails to decrypt instead of letting that hook accept the first one's signatures.
 */
const sealedName = (id: string) => `webhook:${id}`;

function toSummary(row: WebhookRow): WebhookSummary {
  return {
    id: row.id,
    url: webhookPath(row.id),
    workflowId: row.workflowId,
    hasSecret: row.secretCiphertext !== null,
    wait: row.wait,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A workflow's webhooks, each of one workspace (every method but `findReceiving` takes it first).
 * The HMAC secret is stored encrypted like workspace secrets (AES-256-GCM, lib/db/secret-cipher.ts)
 * and only `findReceiving` decrypts it, to check a delivery's signature: nothing else reads it back.
 */
export class WebhookRepository {
  private key: Buffer | undefined;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly keySource: Buffer | (() => Buffer),
  ) {}

  /** @throws NotFoundError when the workflow is not the workspace's */
  async create(
    workspaceId: string,
    workflowId: string,
    options: { secret?: string; wait: boolean },
  ): Promise<WebhookSummary> {
    const row = await this.prisma.$transaction(async (tx) => {
      await assertWorkflowInWorkspace(tx, workspaceId, workflowId);
      const created = await tx.webhook.create({
        data: { id: capabilityId(), workspaceId, workflowId, wait: options.wait },
        select: summaryColumns,
      });
      if (options.secret === undefined) return created;
      // The id is the cipher's authenticated data, so the secret is sealed once the row has one.
      const sealed = encryptSecret(this.secretKey(), sealedName(created.id), options.secret);
      return tx.webhook.update({
        where: { id: created.id },
        data: { secretCiphertext: sealed.ciphertext, secretIv: sealed.iv, secretAuthTag: sealed.authTag },
        select: summaryColumns,
      });
    });
    return toSummary(row);
  }

  /** A page of the workflow's hooks, newest first. @throws NotFoundError for a workflow not in the workspace */
  async list(
    workspaceId: string,
    workflowId: string,
    page: KeysetPage<TimeAndId>,
  ): Promise<KeysetResult<WebhookSummary, TimeAndId>> {
    await assertWorkflowInWorkspace(this.prisma, workspaceId, workflowId);
    const rows = await this.prisma.webhook.findMany({
      where: { workflowId, workspaceId, ...afterTimeAndId("createdAt", "id", "desc", page.after) },
      select: summaryColumns,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: page.limit + 1,
    });
    return keysetResult(rows, page.limit, toSummary, (row) => timeAndIdOf(row.createdAt, row.id));
  }

  /** @throws NotFoundError for a hook not in the workspace */
  async get(workspaceId: string, id: string): Promise<WebhookSummary> {
    const row = await this.prisma.webhook.findFirst({ where: { id, workspaceId }, select: summaryColumns });
    if (!row) throw new NotFoundError("Webhook", id);
    return toSummary(row);
  }

  /** Deletes the hook and its deliveries; its URL answers 404 from now on. @throws NotFoundError */
  async delete(workspaceId: string, id: string): Promise<void> {
    const { count } = await this.prisma.webhook.deleteMany({ where: { id, workspaceId } });
    if (count === 0) throw new NotFoundError("Webhook", id);
  }

  /**
   * The hook a delivery names, in whatever workspace it is: its id is the capability the caller
   * holds (there are no credentials on a hook). Null for an unknown id.
   */
  async findReceiving(id: string): Promise<ReceivingWebhook | null> {
    const row = await this.prisma.webhook.findUnique({ where: { id } });
    if (!row) return null;
    const secret =
      row.secretCiphertext && row.secretIv && row.secretAuthTag
        ? decryptSecret(this.secretKey(), sealedName(row.id), {
            ciphertext: row.secretCiphertext,
            iv: row.secretIv,
            authTag: row.secretAuthTag,
          })
        : null;
    return { id: row.id, workspaceId: row.workspaceId, workflowId: row.workflowId, wait: row.wait, secret };
  }

  private secretKey(): Buffer {
    this.key ??= typeof this.keySource === "function" ? this.keySource() : this.keySource;
    return this.key;
  }
}
