import type { AgentProviderOptions } from "@/contract";

/** How an agent's provider options (contract/model-options.ts) reach its model's AI SDK client. */

type JsonObject = { [key: string]: JsonObject | string | number | boolean };

/** The AI SDK's `providerOptions` for these options, in the provider's own shape; undefined when none are set. */
export function sdkProviderOptions(
  modelId: string,
  options: AgentProviderOptions | undefined,
): Record<string, JsonObject> | undefined {
  if (!options) return undefined;
  const provider = modelId.slice(0, Math.max(0, modelId.indexOf("/")));
  const { reasoningEffort, thinkingBudget } = options;
  if (provider === "openai" && reasoningEffort !== undefined) return { openai: { reasoningEffort } };
  if (provider === "anthropic" && thinkingBudget !== undefined)
    return { anthropic: { thinking: { type: "enabled", budgetTokens: thinkingBudget } } };
  if (provider === "google" && thinkingBudget !== undefined) return { google: { thinkingConfig: { thinkingBudget } } };
  return undefined;
}
