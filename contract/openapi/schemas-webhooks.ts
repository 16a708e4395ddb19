import { z } from "zod";

/** The schemas of the webhook endpoints (docs/CONTRACT.md section 9), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export {
  createdWebhookSchema,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookPageSchema,
  webhookRunResultSchema,
  webhookSummarySchema,
} from "../webhooks";

/** What a hook takes: any JSON object (or a form), its fields becoming the start inputs by name. */
export const webhookBodySchema = z.record(z.string(), z.unknown());
