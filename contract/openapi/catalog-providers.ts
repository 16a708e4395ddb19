import { pathParameter, type ApiOperation } from "./operation";
import { providerConnectionCheckSchema, providerListSchema } from "./schemas-providers";

/** Model providers (lib/providers/provider-endpoints.ts; docs/CONTRACT.md section 4, "Model providers"). */

export const PROVIDER_OPERATIONS = [
  {
    operationId: "listProviders",
    method: "GET",
    path: "/api/providers",
    tag: "Model providers",
    summary: "The model providers and where each one's key comes from",
    description:
      "Read as a run of the workspace reads them: its secret named like the key's variable first, then the server's environment. Variable names only, never a key. A key is set with PUT /api/secrets/{keyVariable}.",
    access: "member",
    role: "viewer",
    answers: [{ status: 200, description: "Every provider, in the model picker's order.", schema: providerListSchema }],
  },
  {
    operationId: "testProviderConnection",
    method: "POST",
    path: "/api/providers/{provider}/test",
    tag: "Model providers",
    summary: "Test the connection to a provider",
    description:
      "One free request with the key a run would use: the provider's model list, through the outbound guard. Answers 200 whether or not the provider accepted, saying which; never the key nor the provider's body.",
    access: "member",
    role: "editor",
    parameters: [pathParameter("provider", "The provider's id (`openai`, `anthropic`, ...).")],
    answers: [{ status: 200, description: "What the provider answered.", schema: providerConnectionCheckSchema }],
    errors: [404],
  },
] as const satisfies readonly ApiOperation[];
