import { z } from "zod";
import type { ListPage } from "../pagination";
import { RUN_STATUSES } from "../runs";
import type { CreatedWebhook, WebhookDeliveryView, WebhookRunResult, WebhookSummary } from "../webhooks";
import type { SameWireType } from "./same-type";
import { pageSchema, timestampSchema } from "./schemas-common";

/** Answers of the webhook endpoints (docs/CONTRACT.md section 9): lib/webhooks/webhook-endpoints.ts. */

/** What a hook takes: any JSON object (or a form), its fields becoming the start inputs by name. */
export const webhookBodySchema = z.record(z.string(), z.unknown());

export const createdWebhookSchema = z.object({
  id: z.string(),
  url: z.string().describe("`/api/hooks/:id`, to put after the server's origin; the hook id is the capability."),
});

export const webhookSummarySchema = createdWebhookSchema.extend({
  workflowId: z.string(),
  hasSecret: z.boolean().describe("Whether calls must be signed; the secret itself is never sent back."),
  wait: z.boolean().describe("Answers the finished run (200) instead of its id at once (202)."),
  createdAt: timestampSchema,
});

export const webhookPageSchema = pageSchema("webhooks", webhookSummarySchema);

export const webhookDeliverySchema = z.object({
  id: z.string(),
  receivedAt: timestampSchema,
  status: z.number().int().nullable().describe("The HTTP status it was answered with; null while it is being answered."),
  runId: z.string().nullable(),
  error: z.string().nullable().describe("Why it was refused."),
  replayed: z.boolean().describe("A repeated Idempotency-Key: answered with the first delivery's run, nothing started."),
});

export const webhookDeliveriesSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

export const webhookRunResultSchema = z.object({
  runId: z.string(),
  status: z.enum(RUN_STATUSES),
  output: z.unknown().describe("The run's output."),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof createdWebhookSchema>, CreatedWebhook>,
  SameWireType<z.output<typeof webhookSummarySchema>, WebhookSummary>,
  SameWireType<z.output<typeof webhookPageSchema>, ListPage<"webhooks", WebhookSummary>>,
  SameWireType<z.output<typeof webhookDeliverySchema>, WebhookDeliveryView>,
  SameWireType<z.output<typeof webhookRunResultSchema>, WebhookRunResult>,
] = [true, true, true, true, true];
void matches;
