import { calcPrice } from "@pydantic/genai-prices";
import type { TokenCounts, Usage } from "@/contract";
import { roundDollars } from "@/core";
import { resolvePricing, parseModelId, PROVIDERS } from "@/providers";

/**
 * Dollars for embedding tokens. Embedding models have an input price only, which the general
 * price resolver (which needs input and output prices) does not accept, so the catalog is asked
 * directly; an override in providers/price-overrides.json wins. Unknown models are unpriced.
 */
export function priceEmbeddingUsage(modelId: string, tokens: TokenCounts, estimated = false): Usage {
  const usage = ((): Usage => {
    const override = resolvePricing(modelId);
    if (override?.source === "operator-override") {
      const input = roundDollars((tokens.prompt * override.prices.input) / 1e6);
      return { tokens, cost: { input, output: 0, total: input } };
    }
    const { provider, model } = parseModelId(modelId);
    const { embedding, priceCatalogId } = PROVIDERS[provider];
    if (!embedding || !priceCatalogId) return { tokens, cost: null, unpriced: true };
    const found = calcPrice({ input_tokens: tokens.prompt, output_tokens: 0 }, model, { providerId: priceCatalogId });
    if (!found) return { tokens, cost: null, unpriced: true };
    const input = roundDollars(found.input_price);
    return { tokens, cost: { input, output: 0, total: input } };
  })();
  if (estimated) usage.estimated = true;
  return usage;
}
