import { z } from "zod";
import { modelPricesSchema, priceCatalogSchema, priceSourceSchema } from "./prices";

/** GET /api/models: what the model picker lists. Never keys. */

/**
 * The provider options an agent may set (its `providerOptions`), by Trellis name: each model lists
 * the ones it accepts in `ModelSummary.providerOptions`, and the agent maps them to the provider's
 * own shape (OpenAI `reasoningEffort`, Anthropic `thinking.budgetTokens`, Gemini `thinkingConfig.thinkingBudget`).
 */
export const MODEL_OPTION_NAMES = ["reasoningEffort", "thinkingBudget"] as const;
export type ModelOptionName = (typeof MODEL_OPTION_NAMES)[number];

/** One provider option a model accepts: a choice of levels, or a number of tokens in a range. */
export const modelOptionSpecSchema = z.discriminatedUnion("name", [
  z.object({
    name: z.literal("reasoningEffort"),
    label: z.string(),
    kind: z.literal("select"),
    values: z.array(z.string()),
  }),
  z.object({
    name: z.literal("thinkingBudget"),
    label: z.string(),
    kind: z.literal("number"),
    min: z.number(),
    max: z.number(),
  }),
]);
export type ModelOptionSpec = z.infer<typeof modelOptionSpecSchema>;

export const modelSummarySchema = z.object({
  id: z.string().describe("Trellis model id, `provider/model`."),
  provider: z.string(),
  /** A file under public/. */
  logo: z.string().describe("The provider's mark the model picker shows: a site path such as `/providers/openai.svg`."),
  label: z.string(),
  description: z.string().optional(),
  contextWindow: z.number().int().optional(),
  prices: modelPricesSchema
    .nullable()
    .describe("US dollars per million tokens (the workspace's override where it has one); null when unknown."),
  unpriced: z.boolean(),
  priceSource: priceSourceSchema.optional().describe("Where `prices` came from; absent when unpriced."),
  offline: z.boolean().optional().describe("The built-in offline model: needs no key and is not a language model."),
  missingSetting: z
    .string()
    .optional()
    .describe(
      "The variable (API key or base URL) the model's provider still needs for this workspace, as a secret or in the server's environment; absent when ready. Never a value.",
    ),
  providerOptions: z
    .array(modelOptionSpecSchema)
    .describe(
      "The provider options (reasoning effort, thinking budget) the model accepts; an agent may set only these.",
    ),
});
export type ModelSummary = z.infer<typeof modelSummarySchema>;

/** GET /api/models: the models, priced for the caller's workspace, and the catalog the prices come from. */
export const modelListSchema = z.object({
  models: z.array(modelSummarySchema),
  catalog: priceCatalogSchema.describe(
    "The npm price catalog the list is priced from: its version and publication date.",
  ),
});
export type ModelList = z.infer<typeof modelListSchema>;
