import type { LanguageModelV4Usage } from "@ai-sdk/provider";
import type { LanguageModelUsage } from "ai";
import type { TokenCounts, Usage } from "@/contract";
import { priceCall, type PricedCall, type PricingOptions } from "./pricing";
import { ESTIMATED_FLAG } from "./resilient-model";

/** The AI SDK's usage of one call as Trellis token counts (provider-reported, or flagged estimated). */
export function tokensFromSdkUsage(usage: LanguageModelUsage | undefined): { tokens: TokenCounts; estimated: boolean } {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  const tokens: TokenCounts = { prompt, completion, total: prompt + completion };
  const cached = usage?.inputTokenDetails.cacheReadTokens;
  if (cached) tokens.cachedPrompt = cached;
  const written = usage?.inputTokenDetails.cacheWriteTokens;
  if (written) tokens.cacheWrite = written;
  const reasoning = usage?.outputTokenDetails.reasoningTokens;
  if (reasoning) tokens.reasoning = reasoning;
  const estimated = usage === undefined || usage.inputTokens === undefined || usage.raw?.[ESTIMATED_FLAG] === true;
  return { tokens, estimated };
}

/** Tokens and dollars of one model call, and the price it was charged at. */
export function pricedCallOf(
  modelId: string,
  usage: LanguageModelUsage | undefined,
  options: PricingOptions = {},
): PricedCall {
  const { tokens, estimated } = tokensFromSdkUsage(usage);
  return priceCall(modelId, tokens, { ...options, estimated });
}

/** Tokens and dollars of one model call. */
export function usageOfCall(
  modelId: string,
  usage: LanguageModelUsage | undefined,
  options: PricingOptions = {},
): Usage {
  return pricedCallOf(modelId, usage, options).usage;
}

/** The `tokens`, `cost` (and flags) fields a block puts in its output. */
export function usageOutputFields(usage: Usage): Record<string, unknown> {
  const fields: Record<string, unknown> = { tokens: usage.tokens, cost: usage.cost };
  if (usage.unpriced) fields.unpriced = true;
  if (usage.estimated) fields.estimated = true;
  return fields;
}

/** The same, from the provider-level usage a model call reports (before the AI SDK maps it). */
export function pricedProviderCall(
  modelId: string,
  usage: LanguageModelV4Usage,
  options: PricingOptions = {},
): PricedCall {
  return pricedCallOf(
    modelId,
    {
      inputTokens: usage.inputTokens.total,
      inputTokenDetails: {
        noCacheTokens: usage.inputTokens.noCache,
        cacheReadTokens: usage.inputTokens.cacheRead,
        cacheWriteTokens: usage.inputTokens.cacheWrite,
      },
      outputTokens: usage.outputTokens.total,
      outputTokenDetails: { textTokens: usage.outputTokens.text, reasoningTokens: usage.outputTokens.reasoning },
      totalTokens: (usage.inputTokens.total ?? 0) + (usage.outputTokens.total ?? 0),
      raw: usage.raw,
    },
    options,
  );
}
