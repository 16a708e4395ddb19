import { putPriceOverrideRequestSchema } from "../prices";
import { PAGE_PARAMETERS, pathParameter, type ApiOperation } from "./operation";
import { priceOverridePageSchema, priceOverrideSchema } from "./schemas-prices";

/** A workspace's own model prices (lib/prices/price-endpoints.ts; docs/CONTRACT.md section 12, "Prices"). */

const model = {
  ...pathParameter(
    "model",
    "The model: its id with its slash kept as a path separator (`/api/prices/ollama/llama3.2`), or `provider/*` (`/api/prices/ollama/*`).",
  ),
  rest: true,
} as const;

export const PRICE_OPERATIONS = [
  {
    operationId: "listPriceOverrides",
    method: "GET",
    path: "/api/prices",
    tag: "Prices",
    summary: "The workspace's own model prices",
    description:
      "By model id. A run of the workspace is charged at these before the operator's price file and the npm catalog.",
    access: "member",
    role: "viewer",
    parameters: PAGE_PARAMETERS,
    answers: [{ status: 200, description: "A page of overrides.", schema: priceOverridePageSchema }],
  },
  {
    operationId: "putPriceOverride",
    method: "PUT",
    path: "/api/prices/{model}",
    tag: "Prices",
    summary: "Set the workspace's price of a model, or of every model of a provider",
    description:
      "Creates the override or replaces it whole. The model must be one the catalog or the model list knows, any model of Ollama or an OpenAI-compatible server, or `provider/*`. Applies from the next run on.",
    access: "member",
    // Admins and owners set what the workspace pays; everyone in it sees the prices.
    role: "admin",
    parameters: [model],
    request: {
      schema: putPriceOverrideRequestSchema,
      required: true,
      example: { input: 0.1, output: 0.4, note: "Negotiated rate" },
    },
    answers: [{ status: 200, description: "The override as stored.", schema: priceOverrideSchema }],
  },
  {
    operationId: "deletePriceOverride",
    method: "DELETE",
    path: "/api/prices/{model}",
    tag: "Prices",
    summary: "Remove the workspace's price of a model",
    description: "The model is priced by the operator's file or the catalog again from the next run on.",
    access: "member",
    role: "admin",
    parameters: [model],
    answers: [{ status: 204, description: "Removed." }],
  },
] as const satisfies readonly ApiOperation[];
