import { z } from "zod";
import { withoutReservedKeys } from "./reserved-names";

/**
 * POST /api/workflows/:id/estimate (docs/CONTRACT.md section 12): what a run would cost, before
 * it runs, from the prompts resolved with the given input, each model's price and the workflow's
 * recent runs. No provider is called. Every figure is an estimate and says so (`estimate: true`).
 */
export const estimateRequestSchema = z.strictObject({
  /** The run's input, checked as the start block checks it. Left out: the inputs are unknown (their defaults aside) and estimated as such. */
  input: withoutReservedKeys(z.record(z.string(), z.unknown())).optional(),
});
export type EstimateRequest = z.input<typeof estimateRequestSchema>;

/** US dollars: the least a run can spend, what it most likely spends, and its worst case. */
export interface CostRange {
  low: number;
  expected: number;
  high: number;
}

/** Where a block's expected figures come from: its median over recent runs, or the documented defaults. */
export type EstimateBasis = "history" | "defaults";

export interface BlockEstimate {
  blockId: string;
  /** The model the block calls. */
  model: string;
  /** Expected tokens over the whole run (every execution of the block, weighted by how likely it runs). */
  tokens: { prompt: number; completion: number };
  /** Null when the model has no known price: the block is listed in `unpriced`, never counted as 0. */
  cost: CostRange | null;
  /** How many times the block runs in a run: 0 in `low` when it may be skipped, loop and parallel counts multiply. */
  executions: CostRange;
  basis: EstimateBasis;
}

export interface WorkflowEstimate {
  /** Always true: these figures are estimates, not charges. */
  estimate: true;
  /** One entry per block that calls a model. */
  blocks: BlockEstimate[];
  /** The priced blocks' sum; `high` counts only the most expensive branch of each router and condition. */
  total: CostRange;
  /** Blocks whose model has no known price: not in `total`. */
  unpriced: string[];
  /** Succeeded runs the expected figures learnt from (the newest, at most `ESTIMATE_HISTORY_RUNS`). */
  historyRuns: number;
}

/** How many recent succeeded runs the estimate reads. */
export const ESTIMATE_HISTORY_RUNS = 20;
