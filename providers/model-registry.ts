import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { ProviderCallError } from "@/executor/errors";
import { PROVIDER_SETTINGS, readSetting, type EnvReader, type ProviderId } from "./env";
import { parseModelId } from "./model-id";
import { createOfflineModel } from "./offline/offline-model";
import { providerApiKey, providerBaseUrl } from "./provider-settings";
import { makeResilient } from "./resilient-model";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy";

/** A Trellis model id resolved to an AI SDK model, with what a call needs to report on it. */
export interface ResolvedModel {
  /** Trellis id, `provider/model`. */
  id: string;
  provider: ProviderId;
  model: LanguageModelV4;
  /** Time limit of one model call (one step of a tool loop). */
  timeoutMs: number;
  /** Secret values to scrub from error messages. */
  secrets: string[];
}

export interface ModelRegistry {
  /** Throws ProviderCallError for a malformed id, an unknown provider or a missing key. */
  resolve(modelId: string): ResolvedModel;
}

export interface ModelRegistryOptions {
  /** Reads keys and base URLs (CONTRACT.md section 4); injected, never `process.env` directly. */
  env: EnvReader;
  /** Custom fetch for every provider client (tests, proxies). */
  fetch?: typeof globalThis.fetch;
  retry?: Partial<RetryPolicy>;
  /** Per-call time limit; default 120 s. */
  callTimeoutMs?: number;
}

export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

function createLanguageModel(provider: ProviderId, model: string, env: EnvReader, fetch: ModelRegistryOptions["fetch"]): LanguageModelV4 {
  switch (provider) {
    case "offline":
      if (model !== "echo") throw new ProviderCallError("offline", `The offline provider has one model, offline/echo; "${model}" does not exist`, { code: "invalid_model_id" });
      return createOfflineModel(model);
    case "openai":
      // Chat Completions rather than the Responses API: it is what OpenAI-like servers speak too.
      return createOpenAI({ apiKey: providerApiKey(env, provider), baseURL: providerBaseUrl(env, provider), fetch }).chat(model);
    case "anthropic":
      return createAnthropic({ apiKey: providerApiKey(env, provider), baseURL: providerBaseUrl(env, provider), fetch })(model);
    case "google":
      return createGoogleGenerativeAI({ apiKey: providerApiKey(env, provider), baseURL: providerBaseUrl(env, provider), fetch })(model);
    case "ollama":
      return createOpenAICompatible({ name: "ollama", baseURL: `${providerBaseUrl(env, provider)}/v1`, includeUsage: true, supportsStructuredOutputs: true, fetch }).chatModel(model);
    case "openai-compatible": {
      const url = providerBaseUrl(env, provider);
      if (!url) {
        throw new ProviderCallError(provider, "OpenAI-compatible models need a server: set OPENAI_COMPATIBLE_BASE_URL (for example http://127.0.0.1:8000/v1)", {
          code: "missing_base_url",
        });
      }
      return createOpenAICompatible({ name: "openai-compatible", baseURL: url, apiKey: providerApiKey(env, provider), includeUsage: true, fetch }).chatModel(model);
    }
  }
}

export function createModelRegistry(options: ModelRegistryOptions): ModelRegistry {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  return {
    resolve(modelId) {
      const { provider, model } = parseModelId(modelId);
      const languageModel = createLanguageModel(provider, model, options.env, options.fetch);
      const key = readSetting(options.env, PROVIDER_SETTINGS[provider].apiKeyVariable);
      return {
        id: modelId,
        provider,
        model: provider === "offline" ? languageModel : makeResilient(languageModel, policy),
        timeoutMs,
        secrets: key ? [key] : [],
      };
    },
  };
}
