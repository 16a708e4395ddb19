/** Tokens and dollars, the figures a user sees on every block, span, event and run. */

export interface TokenCounts {
  prompt: number;
  completion: number;
  total: number;
  /** Prompt tokens read from the provider's cache (a subset of `prompt`). */
  cachedPrompt?: number;
  /** Prompt tokens written to the provider's cache (a subset of `prompt`). */
  cacheWrite?: number;
  /** Reasoning tokens (a subset of `completion`). */
  reasoning?: number;
}

/** US dollars. */
export interface Cost {
  input: number;
  output: number;
  total: number;
}

/**
 * What one model call, one block or one run spent. `cost` is null when any part of it has no
 * known price: then `unpriced` is true and the UI says so instead of showing a made-up 0.
 * `estimated` is true when some tokens were counted locally because a provider reported none.
 */
export interface Usage {
  tokens: TokenCounts;
  cost: Cost | null;
  unpriced?: boolean;
  estimated?: boolean;
}

/** Tokens and cost as the API spreads them on runs and spans; cost null (and unpriced) when no price is known. */
export interface UsageFigures {
  cost: Cost | null;
  unpriced: boolean;
  estimated: boolean;
}
