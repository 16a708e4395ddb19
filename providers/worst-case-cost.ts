import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { roundDollars } from "@/core";
import { resolvePricing, type ModelPricing, type PriceTable } from "./pricing";
import { measureTokensAsync } from "./token-counter";

/**
 * The most one model call could cost, before it is made: every prompt token at the highest input
 * price the model has (cache writes cost more than plain input at some providers) and every
 * allowed output token at the highest output price (reasoning may be priced apart), at the price
 * tier the prompt falls in.
 */

/**
 * Output tokens a budgeted call is counted at, and limited to, when its block sets no `maxTokens`:
 * without a limit a call's cost has no upper bound, so none could be checked against a cap.
 */
export const DEFAULT_BUDGETED_OUTPUT_TOKENS = 4_096;

/**
 * The one place a budget looks a model's price up, with the run's workspace overrides (the prices
 * the call will be charged at): everything the budget guard decides goes through this function.
 */
export function budgetPricing(modelId: string, overrides?: PriceTable): ModelPricing | null {
  return resolvePricing(modelId, overrides ? { overrides } : {});
}

/**
 * Prompt tokens of a request as sent: its messages and tool definitions, counted with o200k_base
 * on their JSON (an overcount, on purpose), in slices so a long prompt does not hold the event loop.
 */
export async function countPromptTokens(
  params: Pick<LanguageModelV4CallOptions, "prompt" | "tools" | "responseFormat" | "abortSignal">,
): Promise<number> {
  // File contents (images, PDFs) are not text: their bytes are left out, and each counts a fixed allowance instead.
  let files = 0;
  const text = JSON.stringify(
    [params.prompt, params.tools ?? null, params.responseFormat ?? null],
    (key, value: unknown) => {
      if (key === "data" && (typeof value === "string" || value instanceof Uint8Array || value instanceof URL)) {
        files += 1;
        return "";
      }
      return value;
    },
  );
  return (await measureTokensAsync(text, params.abortSignal)).tokens + files * FILE_TOKEN_ALLOWANCE;
}

/** Tokens counted for an attached file: about what a large image costs at the main providers. */
const FILE_TOKEN_ALLOWANCE = 2_000;

export function worstCaseCost(pricing: ModelPricing, promptTokens: number, maxOutputTokens: number): number {
  let prices = pricing.prices;
  for (const tier of pricing.tiers) if (promptTokens > tier.aboveInputTokens) prices = tier.prices;
  const input = Math.max(prices.input, prices.cacheWrite ?? 0);
  const output = Math.max(prices.output, prices.reasoning ?? 0);
  return roundDollars((promptTokens * input + maxOutputTokens * output) / 1e6);
}
