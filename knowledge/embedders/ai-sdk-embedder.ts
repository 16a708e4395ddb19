import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { embedMany } from "ai";
import { ProviderCallError } from "@/executor/errors";
import { PROVIDER_SETTINGS, readSetting, type EnvReader, type ProviderId } from "@/providers/env";
import { parseModelId } from "@/providers/model-id";
import { toTrellisError } from "@/providers/provider-errors";
import { providerApiKey, providerBaseUrl } from "@/providers/provider-settings";
import { countTokens } from "../chunking/tokenizer";
import type { Embedder } from "./embedder";
import { priceEmbeddingUsage } from "./embedding-price";
import { createHashEmbedder, OFFLINE_EMBEDDER_ID } from "./hash-embedder";

export interface EmbedderOptions {
  /** Reads keys and base URLs (CONTRACT.md section 4); injected, never `process.env` directly. */
  env: EnvReader;
  fetch?: typeof globalThis.fetch;
  /** Texts per request (providers cap it too: OpenAI 2,048, Google 100). */
  batchSize?: number;
}

function embeddingModel(provider: ProviderId, model: string, options: EmbedderOptions): EmbeddingModelV4 {
  const { env, fetch } = options;
  switch (provider) {
    case "openai":
      return createOpenAI({ apiKey: providerApiKey(env, provider), baseURL: providerBaseUrl(env, provider), fetch }).embedding(model);
    case "google":
      return createGoogleGenerativeAI({ apiKey: providerApiKey(env, provider), baseURL: providerBaseUrl(env, provider), fetch }).embedding(model);
    case "ollama":
      return createOpenAICompatible({ name: "ollama", baseURL: `${providerBaseUrl(env, provider)}/v1`, fetch }).embeddingModel(model);
    case "openai-compatible": {
      const url = providerBaseUrl(env, provider);
      if (!url) {
        throw new ProviderCallError(provider, "OpenAI-compatible embedding models need a server: set OPENAI_COMPATIBLE_BASE_URL", { code: "missing_base_url" });
      }
      return createOpenAICompatible({ name: "openai-compatible", baseURL: url, apiKey: providerApiKey(env, provider), fetch }).embeddingModel(model);
    }
    case "anthropic":
    case "offline":
      throw new ProviderCallError(provider, `${PROVIDER_SETTINGS[provider].label} has no embedding models; use ${OFFLINE_EMBEDDER_ID}, openai/…, google/…, ollama/… or openai-compatible/…`, {
        code: "invalid_embedding_model",
      });
  }
}

/**
 * An embedder for a Trellis embedding model id. `offline/hash-embed` needs nothing; the others
 * go through the AI SDK's `embedMany` with the provider's key and base URL, and report the
 * tokens the provider counted (estimated locally when it reports none) and their price.
 */
export function createEmbedder(modelId: string, options: EmbedderOptions): Embedder {
  if (modelId === OFFLINE_EMBEDDER_ID) return createHashEmbedder();
  const { provider, model } = parseModelId(modelId);
  const sdkModel = embeddingModel(provider, model, options);
  const key = readSetting(options.env, PROVIDER_SETTINGS[provider].apiKeyVariable);
  return {
    id: modelId,
    maxBatchSize: options.batchSize ?? (provider === "google" ? 100 : 256),
    async embed(texts, callOptions = {}) {
      try {
        const result = await embedMany({ model: sdkModel, values: texts, maxRetries: 2, abortSignal: callOptions.signal });
        const reported = result.usage?.tokens;
        const estimated = !(typeof reported === "number" && reported > 0);
        const prompt = estimated ? texts.reduce((sum, text) => sum + countTokens(text), 0) : reported;
        return { embeddings: result.embeddings, usage: priceEmbeddingUsage(modelId, { prompt, completion: 0, total: prompt }, estimated) };
      } catch (error) {
        throw toTrellisError(error, { provider, modelId, secrets: key ? [key] : [] });
      }
    },
  };
}
