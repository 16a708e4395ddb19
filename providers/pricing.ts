import { calcPrice, type ModelPrice, type TieredPrices } from "@pydantic/genai-prices";
import type { AppliedPrice, Cost, ModelPrices, PriceSource, TokenCounts, Usage } from "@/contract";
import { roundDollars } from "@/core";
import overridesFile from "./price-overrides.json";
import { parseModelId } from "./model-id";
import { PROVIDERS } from "./provider-table";

/** What a model costs, in US dollars per million tokens. */
export interface ModelPricing {
  prices: ModelPrices;
  /** Higher prices that apply to a whole call once its prompt exceeds `aboveInputTokens` (Anthropic, Gemini). */
  tiers: Array<{ aboveInputTokens: number; prices: ModelPrices }>;
  source: PriceSource;
  /** For an override: the entry that matched, the exact model id or `provider/*`. */
  match?: string;
  /** The catalog's own model id, when it came from the catalog. */
  catalogModelId?: string;
}

/** Prices by model: keys are exact Trellis model ids or `provider/*` (every model of that provider). */
export type PriceTable = Readonly<Record<string, ModelPrices>>;

const operatorOverrides: PriceTable = (overridesFile as { models: Record<string, ModelPrices> }).models;

/** The entry of `table` for a model, the exact id before its provider's `provider/*`. */
export function findOverride(modelId: string, table: PriceTable): { match: string; prices: ModelPrices } | undefined {
  if (Object.hasOwn(table, modelId)) return { match: modelId, prices: table[modelId]! };
  const pattern = `${modelId.slice(0, modelId.indexOf("/"))}/*`;
  return Object.hasOwn(table, pattern) ? { match: pattern, prices: table[pattern]! } : undefined;
}

function isTiered(value: unknown): value is TieredPrices {
  return typeof value === "object" && value !== null && "base" in value && "tiers" in value;
}

function baseOf(value: ModelPrice[string]): number | undefined {
  if (typeof value === "number") return value;
  if (isTiered(value)) return value.base;
  return undefined;
}

function toPrices(read: (key: string) => number | undefined): ModelPrices | null {
  const input = read("input_mtok");
  const output = read("output_mtok");
  if (input === undefined || output === undefined) return null;
  const prices: ModelPrices = { input, output };
  const cachedInput = read("cache_read_mtok");
  if (cachedInput !== undefined) prices.cachedInput = cachedInput;
  const cacheWrite = read("cache_write_mtok");
  if (cacheWrite !== undefined) prices.cacheWrite = cacheWrite;
  const reasoning = read("output_reasoning_mtok");
  if (reasoning !== undefined) prices.reasoning = reasoning;
  return prices;
}

function fromCatalog(catalogId: string, model: string, at: Date): ModelPricing | null {
  // A zero-usage calculation is the package's public way to look a model up (with its matching
  // rules, aliases and dated price changes) without reimplementing its matcher.
  const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { providerId: catalogId, timestamp: at });
  if (!found) return null;
  const table = found.model_price;
  const prices = toPrices((key) => baseOf(table[key]));
  if (!prices) return null;
  const starts = new Set<number>();
  for (const value of Object.values(table)) if (isTiered(value)) for (const tier of value.tiers) starts.add(tier.start);
  const tiers = [...starts]
    .sort((a, b) => a - b)
    .map((start) => ({
      aboveInputTokens: start,
      prices:
        toPrices((key) => {
          const value = table[key];
          if (!isTiered(value)) return baseOf(value);
          let price = value.base;
          for (const tier of value.tiers) if (start >= tier.start) price = tier.price;
          return price;
        }) ?? prices,
    }));
  return { prices, tiers, source: "catalog", catalogModelId: found.model.id };
}

export interface PricingOptions {
  /**
   * The workspace's own prices (its overrides, loaded once when a run starts): they win over the
   * operator's file and the catalog. Absent: the operator's file, then the catalog.
   */
  overrides?: PriceTable;
  /** Price date; defaults to now. */
  at?: Date;
}

/**
 * The prices of a Trellis model id, or null when nobody knows them. First match wins: the
 * workspace's overrides (`options.overrides`), the operator's providers/price-overrides.json, the
 * npm catalog. An override prices a model the catalog does not know (a local model).
 */
export function resolvePricing(modelId: string, options: PricingOptions = {}): ModelPricing | null {
  const workspace = options.overrides && findOverride(modelId, options.overrides);
  if (workspace)
    return { prices: { ...workspace.prices }, tiers: [], source: "workspace-override", match: workspace.match };
  const operator = findOverride(modelId, operatorOverrides);
  if (operator)
    return { prices: { ...operator.prices }, tiers: [], source: "operator-override", match: operator.match };
  return catalogPricing(modelId, options.at);
}

/** The npm catalog's prices of a model id alone (no override), or null when it does not know the model. */
export function catalogPricing(modelId: string, at: Date = new Date()): ModelPricing | null {
  const { provider, model } = parseModelId(modelId);
  const catalogId = PROVIDERS[provider].priceCatalogId;
  return catalogId ? fromCatalog(catalogId, model, at) : null;
}

function pricesFor(pricing: ModelPricing, promptTokens: number): ModelPrices {
  let prices = pricing.prices;
  for (const tier of pricing.tiers) if (promptTokens > tier.aboveInputTokens) prices = tier.prices;
  return prices;
}

/**
 * Dollars for one call: uncached prompt x input, cache reads x cachedInput, cache writes x
 * cacheWrite, non-reasoning completion x output, reasoning x reasoning. Full precision, rounded
 * only at 1e-10 to drop floating-point noise. `reasoning` repeats the reasoning tokens' share of `output`.
 */
export function computeCost(pricing: ModelPricing, tokens: TokenCounts): Cost {
  const prices = pricesFor(pricing, tokens.prompt);
  const cached = tokens.cachedPrompt ?? 0;
  const written = tokens.cacheWrite ?? 0;
  const uncached = Math.max(0, tokens.prompt - cached - written);
  const reasoning = prices.reasoning === undefined ? 0 : (tokens.reasoning ?? 0);
  const plainCompletion = Math.max(0, tokens.completion - reasoning);
  const input =
    (uncached * prices.input +
      cached * (prices.cachedInput ?? prices.input) +
      written * (prices.cacheWrite ?? prices.input)) /
    1e6;
  const output = (plainCompletion * prices.output + reasoning * (prices.reasoning ?? prices.output)) / 1e6;
  const cost: Cost = { input: roundDollars(input), output: roundDollars(output), total: roundDollars(input + output) };
  // Reasoning is billed as output (at its own price where the catalog has one): shown apart, already in `output`.
  if (tokens.reasoning) cost.reasoning = roundDollars((tokens.reasoning * (prices.reasoning ?? prices.output)) / 1e6);
  return cost;
}

/** The price a call of `tokens` is charged at: where it came from, and the rates (the tier's, when the prompt reached one). */
export function appliedPrice(pricing: ModelPricing, tokens: Pick<TokenCounts, "prompt">): AppliedPrice {
  const applied: AppliedPrice = { source: pricing.source, prices: { ...pricesFor(pricing, tokens.prompt) } };
  if (pricing.match !== undefined) applied.match = pricing.match;
  return applied;
}

/** A priced call: its usage, and the price it was charged at (absent when unpriced). */
export interface PricedCall {
  usage: Usage;
  price?: AppliedPrice;
}

/** Usage of one call and the price applied to it: tokens plus their cost, or `cost: null, unpriced: true`. */
export function priceCall(
  modelId: string,
  tokens: TokenCounts,
  options: PricingOptions & { estimated?: boolean } = {},
): PricedCall {
  const pricing = resolvePricing(modelId, options);
  const usage: Usage = pricing
    ? { tokens, cost: computeCost(pricing, tokens) }
    : { tokens, cost: null, unpriced: true };
  if (options.estimated) usage.estimated = true;
  return pricing ? { usage, price: appliedPrice(pricing, tokens) } : { usage };
}

/** Usage of one call: tokens plus their cost, or `cost: null, unpriced: true`. */
export function priceUsage(
  modelId: string,
  tokens: TokenCounts,
  options: PricingOptions & { estimated?: boolean } = {},
): Usage {
  return priceCall(modelId, tokens, options).usage;
}
