import { RUN_TRIGGER_KINDS } from "../deployments";
import { USAGE_DEFAULT_DAYS, USAGE_GROUP_BYS, USAGE_MAX_DAYS, usageQueryFields } from "../usage";
import type { ApiOperation } from "./operation";
import { usageReportSchema } from "./schemas-usage";

/** Usage by caller (docs/CONTRACT.md section 9): lib/usage/usage-endpoints.ts. */

const fields = usageQueryFields.shape;

export const USAGE_OPERATIONS = [
  {
    operationId: "getUsage",
    method: "GET",
    path: "/api/usage",
    tag: "Usage",
    summary: "Runs, tokens and dollars over a period, by API key, workflow, model, trigger or day",
    description:
      "Runs count by when they were asked for (`queuedAt`). Dollars are summed exactly from the stored runs (by model: from the model calls). A run started by another run (a workflow called as a tool) is counted in its caller's figures, not again on its own.",
    access: "member",
    role: "viewer",
    parameters: [
      {
        name: "from",
        in: "query",
        description: `Start of the period, included: a date (a whole UTC day) or an ISO date and time with its offset. Default: ${USAGE_DEFAULT_DAYS} days before \`to\`.`,
        schema: fields.from,
      },
      {
        name: "to",
        in: "query",
        description: `End of the period, excluded; a date counts whole (through the end of that UTC day). Default: now. At most ${USAGE_MAX_DAYS} days after \`from\`.`,
        schema: fields.to,
      },
      {
        name: "groupBy",
        in: "query",
        description: `One of ${USAGE_GROUP_BYS.join(", ")} (default apiKey). Days are UTC days.`,
        schema: fields.groupBy,
      },
      { name: "workflowId", in: "query", description: "Only this workflow's runs.", schema: fields.workflowId },
      {
        name: "apiKeyId",
        in: "query",
        description: "Only the runs started with this API key.",
        schema: fields.apiKeyId,
      },
      {
        name: "trigger",
        in: "query",
        description: `Only runs started this way: ${RUN_TRIGGER_KINDS.join(", ")}.`,
        schema: fields.trigger,
      },
      {
        name: "includeEvaluations",
        in: "query",
        description:
          "`true` counts evaluation runs too; they are left out by default (unless `trigger=evaluation` asks for them alone).",
        schema: fields.includeEvaluations,
      },
    ],
    answers: [{ status: 200, description: "One row per group, and the period's totals.", schema: usageReportSchema }],
  },
] as const satisfies readonly ApiOperation[];
