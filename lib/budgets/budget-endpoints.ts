import "server-only";
import { putBudgetsRequestSchema } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { BudgetService } from "./budget-service";

/** GET and PUT /api/budgets (docs/CONTRACT.md section 12): any member reads, owners and admins change. */
export function budgetEndpoints(service: () => BudgetService) {
  return {
    read: endpoint("getBudgets", async (_request, _params, { workspace }) =>
      Response.json(await service().read(workspace.id)),
    ),
    update: endpoint("putBudgets", async (request, _params, { workspace }) => {
      const changes = await readJsonRequest(request, putBudgetsRequestSchema, {
        subject: "The budgets",
        maxBytes: 64 * 1024,
      });
      return Response.json(await service().update(workspace.id, changes));
    }),
  };
}

export type BudgetEndpoints = ReturnType<typeof budgetEndpoints>;
