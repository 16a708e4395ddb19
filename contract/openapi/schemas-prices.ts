import { z } from "zod";
import type { ModelPrices } from "../prices";
import type { ListPage } from "../pagination";
import { PRICE_SOURCES, type AppliedPrice, type PriceCatalogInfo, type PriceOverride } from "../prices";
import { pageSchema, timestampSchema } from "./schemas-common";
import type { SameWireType } from "./same-type";

/** Answers about model prices: the catalog's version and date, a workspace's overrides, a call's applied price. */

export const modelPricesSchema = z
  .object({
    input: z.number(),
    output: z.number(),
    cachedInput: z.number().optional().describe("Cached prompt tokens read; `input` when absent."),
    cacheWrite: z.number().optional().describe("Prompt tokens written to the cache; `input` when absent."),
    reasoning: z.number().optional().describe("Reasoning tokens, when priced apart; `output` when absent."),
  })
  .describe("US dollars per million tokens.");

export const priceSourceSchema = z
  .enum(PRICE_SOURCES)
  .describe("Where a price came from, first match wins: the workspace's override, the operator's price file, the npm catalog.");

export const appliedPriceSchema = z
  .object({
    source: priceSourceSchema,
    prices: modelPricesSchema,
    match: z.string().optional().describe("For an override: the entry that matched, an exact model id or `provider/*`."),
  })
  .describe("The price a model call was charged at (a long-prompt tier's rates when the call reached one).");

export const priceCatalogSchema = z.object({
  source: z.string().describe("The npm package the prices come from."),
  version: z.string(),
  date: z.string().describe("When that version was published (YYYY-MM-DD): its prices are as of then."),
});

export const priceOverrideSchema = z.object({
  model: z.string().describe("An exact model id, or `provider/*` for every model of a provider."),
  prices: modelPricesSchema,
  note: z.string().nullable(),
  updatedBy: z.string().nullable().describe("The user id of who set it last; null when not known."),
  updatedAt: timestampSchema,
});

export const priceOverridePageSchema = pageSchema("overrides", priceOverrideSchema);

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof modelPricesSchema>, ModelPrices>,
  SameWireType<z.output<typeof appliedPriceSchema>, AppliedPrice>,
  SameWireType<z.output<typeof priceCatalogSchema>, PriceCatalogInfo>,
  SameWireType<z.output<typeof priceOverrideSchema>, PriceOverride>,
  SameWireType<z.output<typeof priceOverridePageSchema>, ListPage<"overrides", PriceOverride>>,
] = [true, true, true, true, true];
void matches;
