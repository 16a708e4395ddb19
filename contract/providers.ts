import { z } from "zod";

/**
 * Model providers as a workspace sees them (docs/CONTRACT.md section 4, "Model providers"): where
 * each provider's key comes from, and "test connection". A key is set as the workspace secret
 * named like its variable (PUT /api/secrets/{keyVariable}), the one a run reads first; no answer
 * ever holds a key.
 */

export const PROVIDER_KEY_SOURCES = ["workspace", "environment", "missing", "not-needed"] as const;
export type ProviderKeySource = (typeof PROVIDER_KEY_SOURCES)[number];

export const providerStatusSchema = z.object({
  id: z.string().describe("The provider: the first part of a model id (`openai` of `openai/gpt-4o`)."),
  label: z.string(),
  logo: z.string().describe("The provider's mark: a site path such as `/providers/openai.svg`."),
  keyVariable: z
    .string()
    .optional()
    .describe(
      "The variable holding its key, and the name of the workspace secret that sets it; absent when it takes none.",
    ),
  keyRequired: z.boolean(),
  keySource: z
    .enum(PROVIDER_KEY_SOURCES)
    .describe(
      "Where a run of this workspace gets the key: its secret (`workspace`), else the server's environment (`environment`); `missing` when required and set nowhere; `not-needed` when the provider needs none and none is set.",
    ),
  missingSetting: z
    .string()
    .optional()
    .describe(
      "The variable still to set before its models run (a key, or a base URL the operator sets); absent when ready.",
    ),
  testable: z
    .boolean()
    .describe("Whether there is a server for test connection to ask (the offline model runs in-process)."),
});
export type ProviderStatusEntry = z.infer<typeof providerStatusSchema>;

export const providerListSchema = z.object({ providers: z.array(providerStatusSchema) });
export type ProviderList = z.infer<typeof providerListSchema>;

export const providerConnectionCheckSchema = z.object({
  ok: z.boolean(),
  message: z.string().describe("What happened, in words; never the key nor the server's body."),
  status: z.number().int().optional().describe("The server's HTTP status, when it answered."),
  durationMs: z.number().describe("How long the call took."),
});
export type ProviderConnectionCheck = z.infer<typeof providerConnectionCheckSchema>;
