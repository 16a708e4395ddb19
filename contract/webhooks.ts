import { z } from "zod";
import { pageSchema } from "./pagination";
import { RUN_STATUSES } from "./run-statuses";
import { timestampSchema } from "./timestamp";

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
export const createdWebhookSchema = z.object({
  id: z.string(),
  url: z.string().describe("`/api/hooks/:id`, to put after the server's origin; the hook id is the capability."),
});
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/**
 * What a hook made with `wait` answers (200): the run's outcome, not its trace, since whoever
 * holds the URL gets it; block inputs, outputs and costs stay with the workspace.
 */
export const webhookRunResultSchema = z.object({
  runId: z.string(),
  status: z.enum(RUN_STATUSES),
  output: z.unknown().describe("The run's output."),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type WebhookRunResult = z.infer<typeof webhookRunResultSchema>;

/** A hook as GET /api/workflows/:id/webhooks lists it (an extension): whether it has a secret, never the secret. */
export const webhookSummarySchema = createdWebhookSchema.extend({
  workflowId: z.string(),
  hasSecret: z.boolean().describe("Whether calls must be signed; the secret itself is never sent back."),
  wait: z.boolean().describe("Answers the finished run (200) instead of its id at once (202)."),
  createdAt: timestampSchema,
});
export type WebhookSummary = z.infer<typeof webhookSummarySchema>;

export const webhookPageSchema = pageSchema("webhooks", webhookSummarySchema);

/**
 * One request a hook received (GET /api/webhooks/:id/deliveries, an extension): when, the HTTP
 * status it was answered with, the run it started or replayed, and the refusal's message.
 */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  receivedAt: timestampSchema,
  status: z
    .number()
    .int()
    .nullable()
    .describe("The HTTP status it was answered with; null while it is being answered."),
  runId: z.string().nullable(),
  error: z.string().nullable().describe("Why it was refused."),
  replayed: z
    .boolean()
    .describe("A repeated Idempotency-Key: answered with the first delivery's run, nothing started."),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
