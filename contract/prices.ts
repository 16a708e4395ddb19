import { z } from "zod";
import { pageSchema } from "./pagination";
import { timestampSchema } from "./timestamp";

/**
 * Model prices over the API (docs/CONTRACT.md section 12, "Prices"): the npm catalog's version and
 * date, a workspace's own prices for models (negotiated rates, a local model's cost per token), and
 * where the price of each model call came from.
 */

/**
 * Where a price came from, first match wins: the workspace's override, then the operator's file
 * (providers/price-overrides.json), then the npm catalog.
 */
export const PRICE_SOURCES = ["workspace-override", "operator-override", "catalog"] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** Where a price came from. */
export const priceSourceSchema = z
  .enum(PRICE_SOURCES)
  .describe(
    "Where a price came from, first match wins: the workspace's override, the operator's price file, the npm catalog.",
  );

/** US dollars per million tokens. */
export const modelPricesSchema = z
  .object({
    input: z.number(),
    output: z.number(),
    cachedInput: z.number().optional().describe("Cached prompt tokens read; `input` when absent."),
    cacheWrite: z.number().optional().describe("Prompt tokens written to the cache; `input` when absent."),
    reasoning: z.number().optional().describe("Reasoning tokens, when priced apart; `output` when absent."),
  })
  .describe("US dollars per million tokens.");
export type ModelPrices = z.infer<typeof modelPricesSchema>;

/** The price one model call was charged at: a model span's `price`. */
export const appliedPriceSchema = z
  .object({
    source: priceSourceSchema,
    prices: modelPricesSchema,
    match: z
      .string()
      .optional()
      .describe("For an override: the entry that matched, an exact model id or `provider/*`."),
  })
  .describe("The price a model call was charged at (a long-prompt tier's rates when the call reached one).");
export type AppliedPrice = z.infer<typeof appliedPriceSchema>;

/** The price catalog GET /api/models priced its list from. */
export const priceCatalogSchema = z.object({
  source: z.string().describe("The npm package the prices come from."),
  version: z.string(),
  date: z.string().describe("When that version was published (YYYY-MM-DD): its prices are as of then."),
});
export type PriceCatalogInfo = z.infer<typeof priceCatalogSchema>;

/** Dollars per million tokens in an override: a finite number of at least 0. */
const MAX_PRICE_PER_MILLION = 1_000_000;
const PRICE_RULE = `must be a number of US dollars per million tokens, from 0 to ${MAX_PRICE_PER_MILLION.toLocaleString("en-US")}`;
const price = z
  .number({ error: PRICE_RULE })
  .finite(PRICE_RULE)
  .min(0, PRICE_RULE)
  .max(MAX_PRICE_PER_MILLION, PRICE_RULE);

/** What a workspace override's model must look like; the server also checks the provider and, for catalogued providers, the model. */
export const PRICE_MODEL_RULE =
  "must be a model id (provider/model, e.g. openai/gpt-4o-mini or ollama/llama3.2) or provider/* for every model of a provider, at most 200 characters";

/** The model an override prices: `provider/model` or `provider/*`. */
export const priceModelSchema = z
  .string({ error: PRICE_MODEL_RULE })
  .max(200, PRICE_MODEL_RULE)
  .regex(/^[a-z][a-z0-9-]*\/[^\s]+$/, PRICE_MODEL_RULE);

/** PUT /api/prices/:provider/:model: creates the workspace's override of that model or replaces it. */
export const putPriceOverrideRequestSchema = z.strictObject({
  input: price,
  output: price,
  /** Cached prompt tokens read; defaults to `input`. */
  cachedInput: price.optional(),
  /** Prompt tokens written to the cache; defaults to `input`. */
  cacheWrite: price.optional(),
  /** Reasoning tokens, when priced apart; defaults to `output`. */
  reasoning: price.optional(),
  note: z.string({ error: "must be text" }).max(500, "must be at most 500 characters").optional(),
});
export type PutPriceOverrideRequest = z.infer<typeof putPriceOverrideRequestSchema>;

/** One of a workspace's overrides, as GET /api/prices lists it. */
export const priceOverrideSchema = z.object({
  model: z.string().describe("An exact model id, or `provider/*` for every model of a provider."),
  prices: modelPricesSchema,
  note: z.string().nullable(),
  updatedBy: z.string().nullable().describe("The user id of who set it last; null when not known."),
  updatedAt: timestampSchema,
});
export type PriceOverride = z.infer<typeof priceOverrideSchema>;

export const priceOverridePageSchema = pageSchema("overrides", priceOverrideSchema);
