import { route } from "@/lib/http/route";
import { appBudgetEndpoints } from "@/lib/budgets/app-budget-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appBudgetEndpoints.read);
export const PUT = route(appBudgetEndpoints.update);
