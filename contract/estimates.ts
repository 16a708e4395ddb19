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
export const costRangeSchema = z.object({
  low: z
    .number()
    .describe("The least: only blocks every run reaches, known prompt parts, the least completion seen (or 1 token)."),
  expected: z
    .number()
    .describe("The likely figure: medians of recent runs, else the resolved prompt and a default completion."),
  high: z
    .number()
    .describe(
      "The worst case: every call at its output cap, loops at their most, the dearest branch of each router and condition.",
    ),
});
export type CostRange = z.infer<typeof costRangeSchema>;

/** Where a block's expected figures come from: its median over recent runs, or the documented defaults. */
export type EstimateBasis = BlockEstimate["basis"];

export const blockEstimateSchema = z.object({
  blockId: z.string(),
  /** The model the block calls. */
  model: z.string(),
  tokens: z
    .object({ prompt: z.number().int(), completion: z.number().int() })
    .describe("Expected tokens over the run: every execution, weighted by how likely it runs."),
  cost: costRangeSchema
    .nullable()
    .describe("US dollars; null when the model has no known price (the block is then listed in `unpriced`)."),
  executions: costRangeSchema.describe("How many times the block runs in one run (0 in `low` when it may be skipped)."),
  basis: z
    .enum(["history", "defaults"])
    .describe(
      "`history`: expected figures from the workflow's recent succeeded runs; `defaults`: from the documented allowances.",
    ),
});
export type BlockEstimate = z.infer<typeof blockEstimateSchema>;

export const workflowEstimateSchema = z.object({
  estimate: z.literal(true).describe("Always true: estimates, not charges."),
  blocks: z.array(blockEstimateSchema).describe("One entry per block that calls a model."),
  total: costRangeSchema.describe(
    "The priced blocks together; `high` counts only the dearest branch of each router and condition.",
  ),
  unpriced: z.array(z.string()).describe("Blocks whose model has no known price: not in `total`, never counted as 0."),
  historyRuns: z.number().int().describe("Recent succeeded runs read (at most 20)."),
});
export type WorkflowEstimate = z.infer<typeof workflowEstimateSchema>;

/** How many recent succeeded runs the estimate reads. */
export const ESTIMATE_HISTORY_RUNS = 20;
