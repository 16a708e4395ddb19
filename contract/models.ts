/** GET /api/models: what the model picker lists. Never keys. */

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

export interface ModelSummary {
  /** Trellis model id, `provider/model`. */
  id: string;
  provider: string;
  label: string;
  description?: string;
  contextWindow?: number;
  /** Null when unknown. */
  prices: ModelPrices | null;
  unpriced: boolean;
  /** True for the built-in offline model: it needs no key and is not a language model. */
  offline?: boolean;
}
