import type { TokenCounts, Usage } from "@/contract";

/** Arithmetic on tokens and dollars (the types are the contract's). */

export const ZERO_TOKENS: TokenCounts = { prompt: 0, completion: 0, total: 0 };

export function emptyUsage(): Usage {
  return { tokens: { ...ZERO_TOKENS }, cost: { input: 0, output: 0, total: 0 } };
}

/** A replayed call's usage: the recorded tokens at no cost (a known $0, not "unpriced"): the run it was recorded in paid for it. */
export function replayedUsage(usage: Usage): Usage {
  return { tokens: usage.tokens, cost: { input: 0, output: 0, total: 0 } };
}

function addOptional(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

/** Rounds away binary floating-point noise: dollars are kept to 1e-10. */
export function roundDollars(value: number): number {
  return Math.round(value * 1e10) / 1e10;
}

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  const sum: TokenCounts = {
    prompt: a.prompt + b.prompt,
    completion: a.completion + b.completion,
    total: a.total + b.total,
  };
  const cached = addOptional(a.cachedPrompt, b.cachedPrompt);
  if (cached !== undefined) sum.cachedPrompt = cached;
  const cacheWrite = addOptional(a.cacheWrite, b.cacheWrite);
  if (cacheWrite !== undefined) sum.cacheWrite = cacheWrite;
  const reasoning = addOptional(a.reasoning, b.reasoning);
  if (reasoning !== undefined) sum.reasoning = reasoning;
  return sum;
}

/** Sums usage; an unpriced part makes the whole sum unpriced (cost null). */
export function addUsage(a: Usage, b: Usage): Usage {
  const unpriced = Boolean(a.unpriced || b.unpriced || a.cost === null || b.cost === null);
  const sum: Usage = {
    tokens: addTokens(a.tokens, b.tokens),
    cost:
      unpriced || !a.cost || !b.cost
        ? null
        : {
            input: roundDollars(a.cost.input + b.cost.input),
            output: roundDollars(a.cost.output + b.cost.output),
            total: roundDollars(a.cost.total + b.cost.total),
          },
  };
  const reasoningCost = addOptional(a.cost?.reasoning, b.cost?.reasoning);
  if (sum.cost && reasoningCost !== undefined) sum.cost.reasoning = roundDollars(reasoningCost);
  if (unpriced) sum.unpriced = true;
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}

export function sumUsage(parts: Iterable<Usage>): Usage {
  let total = emptyUsage();
  for (const part of parts) total = addUsage(total, part);
  return total;
}
