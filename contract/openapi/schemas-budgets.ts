import { z } from "zod";
import type { BudgetsResponse, RunBudget } from "../budgets";
import type { SameWireType } from "./same-type";

/** Budgets (docs/CONTRACT.md section 12): a run's own cap, and the monthly caps of GET and PUT /api/budgets. */

export const runBudgetSchema = z
  .object({
    maxCost: z.number().describe("The cap in US dollars."),
    source: z
      .enum(["workflow", "request"])
      .describe("Whose cap applies: the workflow's `settings.budget.maxCostPerRun`, or the run request's lower `budget.maxCost`."),
    requested: z.number().optional().describe("Present when the request asked for a cap above the workflow's: the workflow's (lower) cap applies instead."),
  })
  .describe("The run's own cap as it applies; the lower of the workflow's and the request's wins.");

const monthlyBudgetShape = {
  monthlyCap: z.number().nullable().describe("The cap in US dollars per calendar month (UTC); null when none is set."),
  spentThisMonth: z.number().describe("What the runs asked for this month (UTC) spent, as stored; runs still in progress count once they end or pause."),
};

export const budgetsResponseSchema = z.object({
  month: z.string().describe("The calendar month (UTC) spending is counted in, `YYYY-MM`."),
  workspace: z.object(monthlyBudgetShape),
  apiKeys: z
    .array(z.object({ id: z.string(), name: z.string(), prefix: z.string(), ...monthlyBudgetShape }))
    .describe("The workspace's API keys that are not revoked, each with its cap (if any) and what the runs it started spent this month."),
});

const matches: [SameWireType<z.output<typeof runBudgetSchema>, RunBudget>, SameWireType<z.output<typeof budgetsResponseSchema>, BudgetsResponse>] = [
  true,
  true,
];
void matches;
