import { ProviderCallError } from "@/core";
import { isProviderId, PROVIDER_IDS, type ProviderId } from "./provider-table";

export interface ParsedModelId {
  /** The Trellis id, `provider/model`. */
  id: string;
  provider: ProviderId;
  /** The provider's own model id; may itself contain `/` (OpenRouter ids through openai-compatible). */
  model: string;
}

/** Splits a Trellis model id (docs/CONTRACT.md section 3). */
export function parseModelId(id: string): ParsedModelId {
  const slash = id.indexOf("/");
  const provider = slash > 0 ? id.slice(0, slash) : "";
  const model = slash > 0 ? id.slice(slash + 1) : "";
  if (!provider || !model) {
    throw new ProviderCallError(
      "unknown",
      `Model id "${id}" must look like provider/model, for example openai/gpt-4o-mini`,
      {
        code: "invalid_model_id",
      },
    );
  }
  if (!isProviderId(provider)) {
    const known = PROVIDER_IDS.join(", ");
    throw new ProviderCallError(provider, `Unknown model provider "${provider}" in "${id}"; use one of: ${known}`, {
      code: "invalid_model_id",
    });
  }
  return { id, provider, model };
}
