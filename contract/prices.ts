import { z } from "zod";

/**
 * Model prices over the API (docs/CONTRACT.md section 12, "Prices"): the npm catalog's version and
 * date, a workspace's own prices for models (negotiated rates, a local model's cost per token), and
 * where the price of each model call came from.
 */

/** US dollars per million tokens. */
export interface ModelPrices {
  input: number;
  output: number;
  /** Cached prompt tokens read; defaults to `input`. */
  cachedInput?: number;
  /** Prompt tokens written to the cache; defaults to `input`. */
  cacheWrite?: number;
  /** Reasoning tokens, when priced apart from output; defaults to `output`. */
  reasoning?: number;
}

/**
 * Where a price came from, first match wins: the workspace's override, then the operator's file
 * (providers/price-overrides.json), then the npm catalog.
 */
export const PRICE_SOURCES = ["workspace-override", "operator-override", "catalog"] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

/** The price one model call was charged at: a model span's `price`. */
export interface AppliedPrice {
  source: PriceSource;
  /** US dollars per million tokens, as applied (a long-prompt tier's when the call reached it). */
  prices: ModelPrices;
  /** For an override: the entry that matched, an exact model id or `provider/*`. */
  match?: string;
}

/** The price catalog GET /api/models priced its list from. */
export interface PriceCatalogInfo {
  /** The npm package. */
  source: string;
  version: string;
  /** When that version was published (YYYY-MM-DD): its prices are as of then. */
  date: string;
}

/** Dollars per million tokens in an override: a finite number of at least 0. */
const MAX_PRICE_PER_MILLION = 1_000_000;
const PRICE_RULE = `must be a number of US dollars per million tokens, from 0 to ${MAX_PRICE_PER_MILLION.toLocaleString("en-US")}`;
const price = z.number({ error: PRICE_RULE }).finite(PRICE_RULE).min(0, PRICE_RULE).max(MAX_PRICE_PER_MILLION, PRICE_RULE);

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
export interface PriceOverride {
  /** An exact model id, or `provider/*`. */
  model: string;
  prices: ModelPrices;
  note: string | null;
  /** Who set it last (a user id; null when not known). */
  updatedBy: string | null;
  updatedAt: string;
}
