import { embedMany } from "ai";
import { ProviderCallError } from "@/core";
import {
  createProviderFetch,
  parseModelId,
  providerConnection,
  providerEnvOf,
  PROVIDER_IDS,
  PROVIDERS,
  toTrellisError,
  type ProviderEnvInput,
} from "@/providers";
import { countTokens } from "../chunking/tokenizer";
import type { Embedder } from "./embedder";
import { priceEmbeddingUsage } from "./embedding-price";
import { OFFLINE_EMBEDDER_ID } from "@/contract";
import { createHashEmbedder } from "./hash-embedder";

export interface EmbedderOptions {
  /** Reads keys and base URLs (docs/CONTRACT.md section 4): the operator's, and a workspace's stored keys. */
  env: ProviderEnvInput;
  /** A guarded fetch (createProviderFetch); default: one over the operator's provider servers. */
  fetch?: typeof globalThis.fetch;
  /** Texts per request (providers cap it too: OpenAI 2,048, Google 100). */
  batchSize?: number;
}

/** What a refusal suggests instead, as "offline/hash-embed, openai/… or google/…". */
function embeddingChoices(): string {
  const choices = [
    OFFLINE_EMBEDDER_ID,
    ...PROVIDER_IDS.filter((provider) => PROVIDERS[provider].embedding).map((provider) => `${provider}/…`),
  ];
  return `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`;
}

/**
 * An embedder for a Trellis embedding model id. `offline/hash-embed` needs nothing; the others
 * go through the AI SDK's `embedMany` with the provider's key and base URL, and report the
 * tokens the provider counted (estimated locally when it reports none) and their price.
 */
export function createEmbedder(modelId: string, options: EmbedderOptions): Embedder {
  if (modelId === OFFLINE_EMBEDDER_ID) return createHashEmbedder();
  const { provider, model } = parseModelId(modelId);
  const { label, embedding } = PROVIDERS[provider];
  if (!embedding)
    throw new ProviderCallError(provider, `${label} has no embedding models; use ${embeddingChoices()}`, {
      code: "invalid_embedding_model",
    });
  const connection = providerConnection(
    options.env,
    provider,
    options.fetch ?? createProviderFetch(providerEnvOf(options.env).operator),
  );
  const sdkModel = embedding.model(model, connection);
  return {
    id: modelId,
    maxBatchSize: options.batchSize ?? embedding.maxBatchSize,
    async embed(texts, callOptions = {}) {
      try {
        const result = await embedMany({
          model: sdkModel,
          values: texts,
          maxRetries: 2,
          abortSignal: callOptions.signal,
        });
        const reported = result.usage?.tokens;
        const estimated = !(typeof reported === "number" && reported > 0);
        const prompt = estimated ? texts.reduce((sum, text) => sum + countTokens(text), 0) : reported;
        return {
          embeddings: result.embeddings,
          usage: priceEmbeddingUsage(modelId, { prompt, completion: 0, total: prompt }, estimated),
        };
      } catch (error) {
        throw toTrellisError(error, { provider, modelId, secrets: connection.apiKey ? [connection.apiKey] : [] });
      }
    },
  };
}
