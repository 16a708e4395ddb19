import { ESTIMATE_DEFAULTS } from "./estimate-defaults";

/** Tokens of one execution of a block (all its model calls), in the three cases. */
export interface ExecutionTokens {
  low: { prompt: number; completion: number };
  expected: { prompt: number; completion: number };
  high: { prompt: number; completion: number };
}

/** A past execution of the block, with the known part of its prompt counted as it was then. */
export interface PastExecution {
  prompt: number;
  completion: number;
  modelCalls: number;
  knownPrompt: number;
}

export interface BlockPrompt {
  /** Tokens of the prompt's known part now (unknown references counted as empty). */
  knownPrompt: number;
  unknownReferences: number;
  maxCalls: number;
  /** The block's output cap per call, if it sets one. */
  maxOutputTokens: number | undefined;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One execution's tokens. Low: the known prompt once and the least completion seen (1 with no
 * past run). Expected, from past runs: the known prompt re-sent on each of the median number of
 * calls, plus the median of what the rest added (upstream outputs, tool results), and the median
 * completion; with none, the known prompt plus an allowance per unknown reference and a default
 * completion. High: every call of a tool loop at its output cap, each re-sending the prompt with
 * the previous answers and tool results (an arithmetic growth), and never below the most seen.
 */
export function executionTokens(prompt: BlockPrompt, past: readonly PastExecution[]): ExecutionTokens {
  const cap = prompt.maxOutputTokens ?? ESTIMATE_DEFAULTS.maxOutputTokens;
  const calls = prompt.maxCalls;
  const rests = past.map((execution) =>
    Math.max(0, execution.prompt - Math.max(1, execution.modelCalls) * execution.knownPrompt),
  );
  const unknownHigh = prompt.unknownReferences * ESTIMATE_DEFAULTS.unknownReferenceTokens.high;
  const firstCallHigh = prompt.knownPrompt + unknownHigh;
  const growth = cap + (calls > 1 ? ESTIMATE_DEFAULTS.toolResultTokens : 0);
  const high = {
    prompt: Math.max(
      calls * firstCallHigh + ((calls * (calls - 1)) / 2) * growth,
      ...past.map((execution) => execution.prompt),
    ),
    completion: Math.max(calls * cap, ...past.map((execution) => execution.completion)),
  };
  const low = {
    prompt: prompt.knownPrompt,
    completion: past.length > 0 ? Math.min(...past.map((execution) => execution.completion)) : 1,
  };
  const expected =
    past.length > 0
      ? {
          prompt:
            median(past.map((execution) => Math.max(1, execution.modelCalls))) * prompt.knownPrompt + median(rests),
          completion: median(past.map((execution) => execution.completion)),
        }
      : {
          prompt: prompt.knownPrompt + prompt.unknownReferences * ESTIMATE_DEFAULTS.unknownReferenceTokens.expected,
          completion: Math.min(cap, ESTIMATE_DEFAULTS.completionTokens),
        };
  return { low, expected, high };
}
