import { putBudgetsRequestSchema } from "../budgets";
import type { ApiOperation } from "./operation";
import { budgetsResponseSchema } from "./schemas-budgets";

/** Monthly caps (docs/CONTRACT.md section 12): lib/budgets/budget-endpoints.ts. */

const HOW =
  "A run whose model call could take the month's spending past a cap is stopped before that call, failing with `budget_exceeded` (naming the block, the amount spent and the cap). The workspace's cap holds every run; an API key's cap holds the runs started with that key.";

export const BUDGET_OPERATIONS = [
  {
    operationId: "getBudgets",
    method: "GET",
    path: "/api/budgets",
    tag: "Usage",
    summary: "The workspace's monthly caps and what has been spent against them this month",
    description: HOW,
    access: "member",
    role: "viewer",
    answers: [{ status: 200, description: "The caps and this month's spending.", schema: budgetsResponseSchema }],
  },
  {
    operationId: "putBudgets",
    method: "PUT",
    path: "/api/budgets",
    tag: "Usage",
    summary: "Set or remove the workspace's and its API keys' monthly caps",
    description: `${HOW} A cap given as a number is set, one given as null is removed, one left out is kept. Owners and admins only. A negative or non-numeric cap is refused (400) naming the field; an API key id not of this workspace answers 404.`,
    access: "member",
    role: "admin",
    request: {
      schema: putBudgetsRequestSchema,
      required: true,
      example: { workspace: { monthlyCap: 25 }, apiKeys: { "0197a0c4-0000-7000-8000-000000000001": 5 } },
    },
    answers: [
      {
        status: 200,
        description: "The caps as they now are, with this month's spending.",
        schema: budgetsResponseSchema,
      },
    ],
    errors: [404],
  },
] as const satisfies readonly ApiOperation[];
