import { z } from "zod";
import { RUN_TRIGGER_KINDS } from "../deployments";
import { USAGE_GROUP_BYS, type UsageFiguresWithRuns, type UsageReport, type UsageRow } from "../usage";
import type { SameWireType } from "./same-type";
import { costSchema, timestampSchema, tokenCountsSchema, usageFiguresShape } from "./schemas-common";

/** The answer of GET /api/usage (docs/CONTRACT.md section 9): lib/usage/usage-endpoints.ts. */

export const usageFiguresWithRunsSchema = z.object({
  ...usageFiguresShape,
  runs: z.number().int().describe("Runs counted; by model, the runs that called it (a run calling two models counts in both)."),
  testRuns: z.number().int().describe("How many of those runs were test runs: side effects simulated, model calls real and counted here."),
  tokens: tokenCountsSchema,
  pricedCost: costSchema.describe("The dollars of the parts that have a price: equal to `cost` when nothing is unpriced."),
});

export const usageRowSchema = usageFiguresWithRunsSchema.extend({
  key: z
    .string()
    .nullable()
    .describe(
      "An API key's id, a workflow's id, a model id, a trigger kind or a day (YYYY-MM-DD, UTC). Null for runs started without an API key (one row per trigger) and, by model, for knowledge searches' embeddings.",
    ),
  label: z.string().describe("For people: the key's name and prefix (never the key), the workflow's name, the model id, the trigger, the day."),
  trigger: z.enum(RUN_TRIGGER_KINDS).optional().describe("By API key, on the rows of runs without a key: how those runs started."),
});

export const usageReportSchema = z.object({
  from: timestampSchema,
  to: timestampSchema.describe("The end of the period, excluded."),
  groupBy: z.enum(USAGE_GROUP_BYS),
  rows: z.array(usageRowSchema).describe("Most expensive first; by day, oldest first."),
  totals: usageFiguresWithRunsSchema.describe("The whole period's runs, with the same filters."),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof usageFiguresWithRunsSchema>, UsageFiguresWithRuns>,
  SameWireType<z.output<typeof usageRowSchema>, UsageRow>,
  SameWireType<z.output<typeof usageReportSchema>, UsageReport>,
] = [true, true, true];
void matches;
