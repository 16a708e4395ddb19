import { z } from "zod";
import { formatDollars } from "./figures";

/**
 * Budgets (docs/CONTRACT.md section 12): caps in US dollars that stop a run before a model call
 * that could cross them. A run has at most one cap of its own (the workflow's `maxCostPerRun`, or
 * a lower one sent with the run request); the workspace and each API key may have a monthly cap.
 */

/** A cap in US dollars: a finite number, zero or more (zero allows only free models). */
export const budgetAmountSchema = z
  .number({ error: "must be a number of US dollars" })
  .finite("must be a finite number of US dollars")
  .min(0, "must be zero or more (US dollars)");

/** `settings.budget` of the workflow document. */
export const workflowBudgetSchema = z.strictObject({ maxCostPerRun: budgetAmountSchema });
export type WorkflowBudget = z.infer<typeof workflowBudgetSchema>;

/** `budget` of a run request: it can only lower the workflow's cap. */
export const requestBudgetSchema = z.strictObject({ maxCost: budgetAmountSchema });
export type RequestBudget = z.infer<typeof requestBudgetSchema>;

/** Where a cap came from. */
export const BUDGET_SOURCES = ["workflow", "request", "workspace-monthly", "api-key-monthly", "evaluation"] as const;
export type BudgetSource = (typeof BUDGET_SOURCES)[number];

/**
 * A run's own cap as it applies: `source` says whether the workflow's or the request's won (the
 * lower wins). In the run-start answer, on `run.started` and on the stored run.
 */
export const runBudgetSchema = z
  .object({
    maxCost: z.number().describe("The cap in US dollars."),
    source: z
      .enum(["workflow", "request"])
      .describe(
        "Whose cap applies: the workflow's `settings.budget.maxCostPerRun`, or the run request's lower `budget.maxCost`.",
      ),
    requested: z
      .number()
      .optional()
      .describe(
        "Present when the request asked for a cap above the workflow's: the workflow's (lower) cap applies instead.",
      ),
  })
  .describe("The run's own cap as it applies; the lower of the workflow's and the request's wins.");
export type RunBudget = z.infer<typeof runBudgetSchema>;

/** The lower of the workflow's and the request's caps, or null when neither sets one. */
export function effectiveRunBudget(
  workflow: WorkflowBudget | undefined,
  request: RequestBudget | undefined,
): RunBudget | null {
  if (workflow && request) {
    if (request.maxCost < workflow.maxCostPerRun) return { maxCost: request.maxCost, source: "request" };
    return request.maxCost === workflow.maxCostPerRun
      ? { maxCost: workflow.maxCostPerRun, source: "workflow" }
      : { maxCost: workflow.maxCostPerRun, source: "workflow", requested: request.maxCost };
  }
  if (workflow) return { maxCost: workflow.maxCostPerRun, source: "workflow" };
  if (request) return { maxCost: request.maxCost, source: "request" };
  return null;
}

/** PUT /api/budgets: monthly caps; `null` removes one, a field left out keeps it. */
export const putBudgetsRequestSchema = z.strictObject({
  workspace: z.strictObject({ monthlyCap: budgetAmountSchema.nullable() }).optional(),
  apiKeys: z.record(z.string().min(1, "must be an API key id"), budgetAmountSchema.nullable()).optional(),
});
export type PutBudgetsRequest = z.infer<typeof putBudgetsRequestSchema>;

/** One monthly cap with what has been spent against it this calendar month (UTC). */
const monthlyBudgetShape = {
  monthlyCap: z.number().nullable().describe("The cap in US dollars per calendar month (UTC); null when none is set."),
  spentThisMonth: z
    .number()
    .describe(
      "What the runs asked for this month (UTC) spent, as stored; runs still in progress count once they end or pause.",
    ),
};
export type MonthlyBudget = z.infer<z.ZodObject<typeof monthlyBudgetShape>>;

/** GET and PUT /api/budgets. */
export const budgetsResponseSchema = z.object({
  month: z.string().describe("The calendar month (UTC) spending is counted in, `YYYY-MM`."),
  workspace: z.object(monthlyBudgetShape),
  apiKeys: z
    .array(z.object({ id: z.string(), name: z.string(), prefix: z.string(), ...monthlyBudgetShape }))
    .describe(
      "The workspace's API keys that are not revoked, each with its cap (if any) and what the runs it started spent this month.",
    ),
});
export type BudgetsResponse = z.infer<typeof budgetsResponseSchema>;

/**
 * "$0.0123": dollars as budget messages state them, exactly as the ledger holds them (rounding a
 * small spend to four decimals read "$0.0000 spent").
 */
export function formatBudgetAmount(value: number): string {
  return value === 0 ? "$0" : formatDollars(value);
}
