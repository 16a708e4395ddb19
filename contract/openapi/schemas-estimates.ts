import { z } from "zod";
import type { BlockEstimate, CostRange, WorkflowEstimate } from "../estimates";
import type { SameWireType } from "./same-type";

/** The answer of POST /api/workflows/:id/estimate (docs/CONTRACT.md section 12): lib/estimates/estimate-endpoints.ts. */

export const costRangeSchema = z.object({
  low: z.number().describe("The least: only blocks every run reaches, known prompt parts, the least completion seen (or 1 token)."),
  expected: z.number().describe("The likely figure: medians of recent runs, else the resolved prompt and a default completion."),
  high: z.number().describe("The worst case: every call at its output cap, loops at their most, the dearest branch of each router and condition."),
});

export const blockEstimateSchema = z.object({
  blockId: z.string(),
  model: z.string(),
  tokens: z
    .object({ prompt: z.number().int(), completion: z.number().int() })
    .describe("Expected tokens over the run: every execution, weighted by how likely it runs."),
  cost: costRangeSchema.nullable().describe("US dollars; null when the model has no known price (the block is then listed in `unpriced`)."),
  executions: costRangeSchema.describe("How many times the block runs in one run (0 in `low` when it may be skipped)."),
  basis: z
    .enum(["history", "defaults"])
    .describe("`history`: expected figures from the workflow's recent succeeded runs; `defaults`: from the documented allowances."),
});

export const workflowEstimateSchema = z.object({
  estimate: z.literal(true).describe("Always true: estimates, not charges."),
  blocks: z.array(blockEstimateSchema).describe("One entry per block that calls a model."),
  total: costRangeSchema.describe("The priced blocks together; `high` counts only the dearest branch of each router and condition."),
  unpriced: z.array(z.string()).describe("Blocks whose model has no known price: not in `total`, never counted as 0."),
  historyRuns: z.number().int().describe("Recent succeeded runs read (at most 20)."),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof costRangeSchema>, CostRange>,
  SameWireType<z.output<typeof blockEstimateSchema>, BlockEstimate>,
  SameWireType<z.output<typeof workflowEstimateSchema>, WorkflowEstimate>,
] = [true, true, true];
void matches;
