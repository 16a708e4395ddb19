import { estimateRequestSchema } from "../estimates";
import { pathParameter, type ApiOperation } from "./operation";
import { workflowEstimateSchema } from "./schemas-estimates";

/** The cost estimate before a run (docs/CONTRACT.md section 12): lib/estimates/estimate-endpoints.ts. */

export const ESTIMATE_OPERATIONS = [
  {
    operationId: "estimateRun",
    method: "POST",
    path: "/api/workflows/{id}/estimate",
    tag: "Runs",
    summary: "Estimate what a run of the draft would cost, before running it",
    description:
      "Per block that calls a model and in total, low / expected / high in US dollars, from the prompts resolved with the given input, each model's price, the blocks' output caps and the workflow's last 20 succeeded runs. No provider is called and nothing is stored. An input the start block would refuse answers 400 naming it.",
    access: "member",
    role: "viewer",
    parameters: [pathParameter("id", "The workflow's id.")],
    request: {
      schema: estimateRequestSchema,
      required: false,
      example: { input: { message: "My parcel arrived broken" } },
    },
    answers: [{ status: 200, description: "The estimate.", schema: workflowEstimateSchema }],
    errors: [400, 404],
  },
] as const satisfies readonly ApiOperation[];
