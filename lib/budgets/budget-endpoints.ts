import "server-only";
import { putBudgetsRequestSchema } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { BudgetService } from "./budget-service";

/** GET and PUT /api/budgets (docs/CONTRACT.md section 12): any member reads, owners and admins change. */
export function budgetEndpoints(service: () => BudgetService, audit: AuditRequest) {
  return {
    read: endpoint("getBudgets", async (_request, _params, { workspace }) =>
      Response.json(await service().read(workspace.id)),
    ),
    update: endpoint("putBudgets", async (request, _params, member) => {
      const changes = await readJsonRequest(request, putBudgetsRequestSchema, {
        subject: "The budgets",
        maxBytes: 64 * 1024,
      });
      const before = await service().read(member.workspace.id);
      const after = await service().update(member.workspace.id, changes);
      const capsOf = (budgets: typeof after) => ({
        workspace: budgets.workspace.monthlyCap,
        apiKeys: Object.fromEntries(budgets.apiKeys.map((key) => [key.id, key.monthlyCap])),
      });
      await audit(request, member, {
        action: "budget.set",
        object: { type: "budget", id: member.workspace.id, name: "Monthly caps" },
        summary: { before: capsOf(before), after: capsOf(after) },
      });
      return Response.json(after);
    }),
  };
}

export type BudgetEndpoints = ReturnType<typeof budgetEndpoints>;
