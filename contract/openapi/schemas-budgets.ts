/** The schemas of the budget endpoints (docs/CONTRACT.md section 12), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { budgetsResponseSchema, runBudgetSchema } from "../budgets";
