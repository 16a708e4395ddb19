import type { AppliedPrice, ModelPrices, PriceCatalogInfo, PriceSource } from "@/contract";

/** How prices read wherever they are shown: the model picker, the trace, Settings › Prices. Run figures are formatted by components/ui/format.ts. */

/** A price per million tokens: "$0.15", "$0". */
export function formatPricePerMillion(dollars: number): string {
  return dollars === 0 ? "$0" : `$${Number(dollars.toPrecision(3))}`;
}

/** Where a price came from, for people. */
export const PRICE_SOURCE_LABELS: Record<PriceSource, string> = {
  "workspace-override": "this workspace's price",
  "operator-override": "the server's price file",
  catalog: "the price catalog",
};

/** "$2 in · $8 out per 1M tokens", with the cache and reasoning rates where they are set apart. */
export function ratesText(prices: ModelPrices): string {
  const parts = [`${formatPricePerMillion(prices.input)} in`, `${formatPricePerMillion(prices.output)} out`];
  if (prices.cachedInput !== undefined) parts.push(`${formatPricePerMillion(prices.cachedInput)} cached in`);
  if (prices.cacheWrite !== undefined) parts.push(`${formatPricePerMillion(prices.cacheWrite)} cache write`);
  if (prices.reasoning !== undefined) parts.push(`${formatPricePerMillion(prices.reasoning)} reasoning`);
  return `${parts.join(" · ")} per 1M tokens`;
}

/** The rate a call was charged at and where it came from: "this workspace's price (openai/*): $2 in · $8 out per 1M tokens". */
export function appliedPriceText(price: AppliedPrice): string {
  const source = PRICE_SOURCE_LABELS[price.source];
  return `${source}${price.match ? ` (${price.match})` : ""}: ${ratesText(price.prices)}`;
}

/** "Prices: genai-prices 0.1.8 (2026-09-23)". */
export function catalogText(catalog: PriceCatalogInfo): string {
  return `Prices: ${catalog.source.replace(/^@[^/]+\//, "")} ${catalog.version} (${catalog.date})`;
}
