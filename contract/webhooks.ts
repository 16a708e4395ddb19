import { z } from "zod";
import type { RunStatus } from "./run-statuses";

/** Webhooks: a URL that starts a workflow's active deployment (docs/CONTRACT.md section 9). */

/** The longest HMAC secret a hook takes; any length from 1 works with `openssl dgst -hmac`. */
export const WEBHOOK_SECRET_MAX_LENGTH = 512;

/** The largest body a hook reads: a bigger one is refused with 413 before it is parsed (the signature covers the raw bytes). */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** How many deliveries a hook keeps and lists, newest first. */
export const WEBHOOK_DELIVERIES_KEPT = 20;

/** How long an `Idempotency-Key` is remembered: a repeat within it answers the first run's id and starts nothing. */
export const WEBHOOK_IDEMPOTENCY_HOURS = 24;

/** The header carrying a hook's signature when it has a secret: `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, or the weaker `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const WEBHOOK_SIGNATURE_HEADER = "x-trellis-signature";

/** POST /api/workflows/:id/webhooks. */
export const createWebhookRequestSchema = z.strictObject({
  secret: z
    .string()
    .min(1, "must not be empty: leave it out for a hook without a signature")
    .max(WEBHOOK_SECRET_MAX_LENGTH, `must be at most ${WEBHOOK_SECRET_MAX_LENGTH} characters`)
    .optional(),
  wait: z.boolean().optional().default(false),
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;

/** The hook's path on this server: POST it to start a run. */
export function webhookPath(id: string): string {
  return `/api/hooks/${encodeURIComponent(id)}`;
}

/** The answer of POST /api/workflows/:id/webhooks: the secret is never sent back. */
export interface CreatedWebhook {
  id: string;
  /** `/api/hooks/:id`, to put after the server's origin. */
  url: string;
}

/**
 * What a hook made with `wait` answers (200): the run's outcome, not its trace, since whoever
 * holds the URL gets it; block inputs, outputs and costs stay with the workspace.
 */
export interface WebhookRunResult {
  runId: string;
  status: RunStatus;
  output: unknown;
  error: { code: string; message: string } | null;
}

/** A hook as GET /api/workflows/:id/webhooks lists it (an extension): whether it has a secret, never the secret. */
export interface WebhookSummary extends CreatedWebhook {
  workflowId: string;
  hasSecret: boolean;
  /** Answers the finished run (200) instead of its id at once (202). */
  wait: boolean;
  createdAt: string;
}

/**
 * One request a hook received (GET /api/webhooks/:id/deliveries, an extension): when, the HTTP
 * status it was answered with (null while it is being answered), the run it started or replayed,
 * and the refusal's message.
 */
export interface WebhookDeliveryView {
  id: string;
  receivedAt: string;
  status: number | null;
  runId: string | null;
  error: string | null;
  /** A repeated Idempotency-Key: answered with the first delivery's run, nothing started. */
  replayed: boolean;
}
