/** The schemas of the budget endpoints (docs/CONTRACT.md section 12): each answer's is declared once, with its type, in the contract's own files. */

export { budgetsResponseSchema, runBudgetSchema } from "../budgets";
