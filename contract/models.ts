import type { ModelPrices, PriceCatalogInfo, PriceSource } from "./prices";

/** GET /api/models: what the model picker lists. Never keys. */

export interface ModelSummary {
  /** Trellis model id, `provider/model`. */
  id: string;
  provider: string;
  /** The provider's mark, a site path such as `/providers/openai.svg` (a file under public/). */
  logo: string;
  label: string;
  description?: string;
  contextWindow?: number;
  /** Null when unknown. The workspace's override where it has one. */
  prices: ModelPrices | null;
  unpriced: boolean;
  /** Where `prices` came from; absent when unpriced. */
  priceSource?: PriceSource;
  /** True for the built-in offline model: it needs no key and is not a language model. */
  offline?: boolean;
  /**
   * The variable the model's provider still needs before it can run for this workspace (its API
   * key, or an OpenAI-compatible server's base URL), set neither as a workspace secret nor in the
   * server's environment; absent when the provider is ready. Never a value.
   */
  missingSetting?: string;
  /** The provider options (reasoning effort, thinking budget) this model accepts; empty when none. */
  providerOptions: ModelOptionSpec[];
}

/** GET /api/models: the models, priced for the caller's workspace, and the catalog the prices come from. */
export interface ModelList {
  models: ModelSummary[];
  catalog: PriceCatalogInfo;
}

/**
 * The provider options an agent may set (its `providerOptions`), by Trellis name: each model lists
 * the ones it accepts in `ModelSummary.providerOptions`, and the agent maps them to the provider's
 * own shape (OpenAI `reasoningEffort`, Anthropic `thinking.budgetTokens`, Gemini `thinkingConfig.thinkingBudget`).
 */
export const MODEL_OPTION_NAMES = ["reasoningEffort", "thinkingBudget"] as const;
export type ModelOptionName = (typeof MODEL_OPTION_NAMES)[number];

/** One provider option a model accepts: a choice of levels, or a number of tokens in a range. */
export type ModelOptionSpec =
  | { name: "reasoningEffort"; label: string; kind: "select"; values: string[] }
  | { name: "thinkingBudget"; label: string; kind: "number"; min: number; max: number };
