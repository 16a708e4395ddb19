import "server-only";
import { WEBHOOK_DELIVERIES_KEPT, type WebhookDeliveryView } from "@/contract";
import { keyExpiry, NotFoundError, type IdempotencyKeyStore, type KeyHolder, type PrismaClient } from "@/lib/db";

/** How a delivery was answered. */
export interface DeliveryOutcome {
  /** The HTTP status answered. */
  status: number;
  runId?: string | null;
  /** The refusal's message (never a secret: it is what the caller was answered). */
  error?: string | null;
  replayed?: boolean;
}

function toView(row: {
  id: string;
  receivedAt: Date;
  status: number | null;
  runId: string | null;
  error: string | null;
  replayed: boolean;
}): WebhookDeliveryView {
  return {
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
    status: row.status,
    runId: row.runId,
    error: row.error,
    replayed: row.replayed,
  };
}

/**
 * What each hook received. A hook keeps its last WEBHOOK_DELIVERIES_KEPT deliveries: every insert
 * deletes older ones in the same transaction, except a delivery still holding an Idempotency-Key
 * younger than WEBHOOK_IDEMPOTENCY_HOURS (the key must keep answering a retry for that long, so
 * a burst of keyed deliveries outlives the 20 for at most a day; only the 20 are ever listed).
 * The key is unique per hook: two deliveries with one key cannot both claim it.
 */
export class WebhookDeliveryRepository implements IdempotencyKeyStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Stores a delivery that holds no key (answered already), pruning the hook's older ones. */
  async record(webhookId: string, outcome: DeliveryOutcome): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.webhookDelivery.create({
        data: {
          webhookId,
          status: outcome.status,
          runId: outcome.runId ?? null,
          error: outcome.error ?? null,
          replayed: outcome.replayed ?? false,
        },
      }),
      this.prune(webhookId),
    ]);
  }

  /**
   * Stores a delivery being answered that holds `key`, or answers null when another delivery of
   * the hook holds it (the unique (webhook, key) index decides, so of two at once exactly one wins).
   */
  async claim(webhookId: string, key: string): Promise<string | null> {
    const [claimed] = await this.prisma.$transaction([
      this.prisma.webhookDelivery.createManyAndReturn({
        data: [{ webhookId, idempotencyKey: key, status: null }],
        skipDuplicates: true,
        select: { id: true },
      }),
      this.prune(webhookId),
    ]);
    return claimed[0]?.id ?? null;
  }

  async keyHolder(webhookId: string, key: string): Promise<KeyHolder | null> {
    return this.prisma.webhookDelivery.findUnique({
      where: { webhookId_idempotencyKey: { webhookId, idempotencyKey: key } },
      select: { id: true, receivedAt: true, status: true, runId: true },
    });
  }

  /**
   * Lets the key a delivery holds be claimed again, if it still holds it and was received at or
   * before `receivedBy` (an expired key, or a claim whose process died before starting its run).
   */
  async releaseKey(deliveryId: string, receivedBy: Date): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, idempotencyKey: { not: null }, receivedAt: { lte: receivedBy } },
      data: { idempotencyKey: null },
    });
  }

  /**
   * Records how a claimed delivery was answered. It keeps its key only when a run started: a
   * refused delivery (the workflow not deployed, say) does not use up its key, so a retry can.
   */
  async settle(deliveryId: string, outcome: DeliveryOutcome): Promise<void> {
    const started = Boolean(outcome.runId);
    await this.prisma.webhookDelivery.update({
      where: { id: deliveryId },
      data: {
        status: outcome.status,
        runId: outcome.runId ?? null,
        error: outcome.error ?? null,
        ...(started ? {} : { idempotencyKey: null }),
      },
    });
  }

  /** The hook's last deliveries, newest first. @throws NotFoundError for a hook not in the workspace */
  async list(workspaceId: string, webhookId: string): Promise<WebhookDeliveryView[]> {
    const hook = await this.prisma.webhook.findFirst({ where: { id: webhookId, workspaceId }, select: { id: true } });
    if (!hook) throw new NotFoundError("Webhook", webhookId);
    const rows = await this.prisma.webhookDelivery.findMany({
      where: { webhookId },
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      take: WEBHOOK_DELIVERIES_KEPT,
      select: { id: true, receivedAt: true, status: true, runId: true, error: true, replayed: true },
    });
    return rows.map(toView);
  }

  /** Deletes the hook's deliveries past the newest WEBHOOK_DELIVERIES_KEPT, but those still holding a live key. */
  private prune(webhookId: string) {
    return this.prisma.$executeRaw`
      DELETE FROM webhook_deliveries
      WHERE webhook_id = ${webhookId}
        AND id NOT IN (
          SELECT id FROM webhook_deliveries WHERE webhook_id = ${webhookId} ORDER BY received_at DESC, id DESC LIMIT ${WEBHOOK_DELIVERIES_KEPT}
        )
        AND (idempotency_key IS NULL OR received_at <= ${keyExpiry()})`;
  }
}
