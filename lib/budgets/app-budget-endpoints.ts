import "server-only";
import { auditRequestsTo } from "@/lib/audit";
import { getPrisma, getRepositories } from "@/lib/db";
import { budgetEndpoints } from "./budget-endpoints";
import { createBudgetService } from "./budget-service";

/** The budget endpoints over the app's database. */
export const appBudgetEndpoints = budgetEndpoints(
  () => createBudgetService(getPrisma(), getRepositories().budgets),
  auditRequestsTo(getPrisma),
);
