import "server-only";
import type { Cost, TokenCounts, Usage } from "@/contract";
import type { Prisma } from "@/lib/generated/prisma/client";
import { InvalidInputError } from "./errors";

/**
 * Usage <-> the token and cost columns shared by runs and spans. Dollars are NUMERIC(20,10) so
 * they add up exactly in SQL; a null cost means "no known price", never zero.
 */

export interface UsageColumns {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cachedPromptTokens: number | null;
  cacheWriteTokens: number | null;
  reasoningTokens: number | null;
  costInput: string | null;
  costOutput: string | null;
  costTotal: string | null;
  costReasoning: string | null;
  unpriced: boolean;
  estimated: boolean;
}

type StoredColumns = {
  promptTokens: number | null;
  completionTokens: number | null;
  totalTokens: number | null;
  cachedPromptTokens: number | null;
  cacheWriteTokens: number | null;
  reasoningTokens: number | null;
  costInput: Prisma.Decimal | null;
  costOutput: Prisma.Decimal | null;
  costTotal: Prisma.Decimal | null;
  costReasoning: Prisma.Decimal | null;
  unpriced: boolean;
  estimated: boolean;
};

export function usageToColumns(usage: Usage): UsageColumns {
  const { tokens, cost } = usage;
  for (const [name, count] of Object.entries(tokens)) {
    if (count !== undefined && !(Number.isSafeInteger(count) && count >= 0)) {
      throw new InvalidInputError(
        `tokens.${name} must be a whole number of at least 0, got ${String(count)}`,
        `tokens.${name}`,
      );
    }
  }
  for (const [name, dollars] of Object.entries(cost ?? {})) {
    if (!Number.isFinite(dollars) || dollars < 0) {
      throw new InvalidInputError(
        `cost.${name} must be a finite number of dollars of at least 0, got ${String(dollars)}`,
        `cost.${name}`,
      );
    }
  }
  const unpriced = Boolean(usage.unpriced) || cost === null;
  return {
    promptTokens: tokens.prompt,
    completionTokens: tokens.completion,
    totalTokens: tokens.total,
    cachedPromptTokens: tokens.cachedPrompt ?? null,
    cacheWriteTokens: tokens.cacheWrite ?? null,
    reasoningTokens: tokens.reasoning ?? null,
    // Strings keep the dollars exactly as computed (a JS number's shortest decimal form).
    costInput: unpriced || !cost ? null : String(cost.input),
    costOutput: unpriced || !cost ? null : String(cost.output),
    costTotal: unpriced || !cost ? null : String(cost.total),
    costReasoning: unpriced || cost?.reasoning === undefined ? null : String(cost.reasoning),
    unpriced,
    estimated: Boolean(usage.estimated),
  };
}

/** Columns for "no usage reported" on a span (all token and cost columns NULL). */
export const NO_USAGE_COLUMNS = {
  promptTokens: null,
  completionTokens: null,
  totalTokens: null,
  cachedPromptTokens: null,
  cacheWriteTokens: null,
  reasoningTokens: null,
  costInput: null,
  costOutput: null,
  costTotal: null,
  costReasoning: null,
  unpriced: false,
  estimated: false,
} as const;

export function tokensFromColumns(row: StoredColumns): TokenCounts {
  const tokens: TokenCounts = {
    prompt: row.promptTokens ?? 0,
    completion: row.completionTokens ?? 0,
    total: row.totalTokens ?? 0,
  };
  if (row.cachedPromptTokens !== null) tokens.cachedPrompt = row.cachedPromptTokens;
  if (row.cacheWriteTokens !== null) tokens.cacheWrite = row.cacheWriteTokens;
  if (row.reasoningTokens !== null) tokens.reasoning = row.reasoningTokens;
  return tokens;
}

export function costFromColumns(row: StoredColumns): Cost | null {
  if (row.unpriced || row.costInput === null || row.costOutput === null || row.costTotal === null) return null;
  const cost: Cost = {
    input: row.costInput.toNumber(),
    output: row.costOutput.toNumber(),
    total: row.costTotal.toNumber(),
  };
  if (row.costReasoning !== null) cost.reasoning = row.costReasoning.toNumber();
  return cost;
}

/** A span's usage, or undefined when it reported none. */
export function usageFromColumns(row: StoredColumns): Usage | undefined {
  if (row.promptTokens === null && row.completionTokens === null && row.totalTokens === null) return undefined;
  const usage: Usage = { tokens: tokensFromColumns(row), cost: costFromColumns(row) };
  if (row.unpriced) usage.unpriced = true;
  if (row.estimated) usage.estimated = true;
  return usage;
}
