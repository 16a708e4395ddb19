import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV4, LanguageModelV4 } from "@ai-sdk/provider";
import { ProviderCallError } from "@/core";
import { createOfflineModel, type OfflinePace } from "./offline/offline-model";

/**
 * Every fact about a model provider, one entry each: its settings (docs/CONTRACT.md section 4), how
 * its AI SDK models are made, where its prices come from and what the model picker offers.
 * Adding a provider is one entry here plus its test wire format (testing/test-model-registry.ts).
 */

/** What a provider's client is given, read from its settings by provider-settings.ts. */
export interface ProviderConnection {
  apiKey?: string;
  /** The base URL setting or default, as given (it includes the API version), no trailing slash. */
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  /** In-process providers: how fast they stream (the registry's `offlinePace`). */
  pace?: OfflinePace;
}

/**
 * The one request "test connection" makes (lib/providers): a GET of the provider's model list,
 * which costs nothing, proves the server answers and, where a key is sent, that it accepts it.
 */
export interface ConnectionCheck {
  /** Appended to the base URL. */
  path: string;
  headers(apiKey: string | undefined): Record<string, string>;
}

const bearer = (apiKey: string | undefined): Record<string, string> =>
  apiKey ? { authorization: `Bearer ${apiKey}` } : {};

/** A model the picker offers for a provider the price catalog cannot enumerate. */
export interface PickerModel {
  /** The provider's own model id (the part after `provider/`). */
  model: string;
  label: string;
  description: string;
}

export interface ProviderEntry {
  label: string;
  /** The mark the model picker shows beside the provider's models: a file under public/, as a site path. */
  logo: string;
  /** The variable holding the API key; absent for providers that need none. */
  apiKeyVariable?: string;
  /** Whether a missing key is an error (Ollama and most OpenAI-compatible servers need none). */
  apiKeyRequired: boolean;
  baseUrlVariable?: string;
  defaultBaseUrl?: string;
  languageModel(model: string, connection: ProviderConnection): LanguageModelV4;
  /** Absent: the provider has no embedding models, and the embedder says so. */
  embedding?: {
    model(model: string, connection: ProviderConnection): EmbeddingModelV4;
    /** Texts per request the provider accepts. */
    maxBatchSize: number;
  };
  /** The provider's id in @pydantic/genai-prices; absent: unpriced unless price-overrides.json prices it. */
  priceCatalogId?: string;
  /** The price catalog's models this provider's API serves; absent: all of them. */
  catalogModels?: RegExp;
  /** Offered by the picker besides the price catalog's models. */
  pickerModels?: PickerModel[];
  /** How "test connection" reaches it; absent for in-process providers (nothing to reach). */
  connectionCheck?: ConnectionCheck;
  /** Answers inside this process: no network to retry, exact usage, listed first, marked offline. */
  inProcess?: true;
}

const PROVIDER_TABLE = {
  openai: {
    label: "OpenAI",
    logo: "/providers/openai.svg",
    apiKeyVariable: "OPENAI_API_KEY",
    apiKeyRequired: true,
    baseUrlVariable: "OPENAI_BASE_URL",
    defaultBaseUrl: "https://api.openai.com/v1",
    // Chat Completions rather than the Responses API: it is what OpenAI-like servers speak too.
    languageModel: (model, connection) => createOpenAI(connection).chat(model),
    embedding: { model: (model, connection) => createOpenAI(connection).embedding(model), maxBatchSize: 256 },
    priceCatalogId: "openai",
    connectionCheck: { path: "/models", headers: bearer },
  },
  anthropic: {
    label: "Anthropic",
    logo: "/providers/anthropic.svg",
    apiKeyVariable: "ANTHROPIC_API_KEY",
    apiKeyRequired: true,
    baseUrlVariable: "ANTHROPIC_BASE_URL",
    defaultBaseUrl: "https://api.anthropic.com/v1",
    languageModel: (model, connection) => createAnthropic(connection)(model),
    priceCatalogId: "anthropic",
    connectionCheck: {
      path: "/models",
      headers: (apiKey): Record<string, string> => ({
        ...(apiKey ? { "x-api-key": apiKey } : {}),
        "anthropic-version": "2023-06-01",
      }),
    },
  },
  google: {
    label: "Google",
    logo: "/providers/google.svg",
    apiKeyVariable: "GOOGLE_GENERATIVE_AI_API_KEY",
    apiKeyRequired: true,
    baseUrlVariable: "GOOGLE_GENERATIVE_AI_BASE_URL",
    defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
    languageModel: (model, connection) => createGoogleGenerativeAI(connection)(model),
    embedding: {
      model: (model, connection) => createGoogleGenerativeAI(connection).embedding(model),
      maxBatchSize: 100,
    },
    priceCatalogId: "google",
    // The catalog's Google entry also prices Vertex AI's partner models (Claude and others), which
    // the Gemini API does not serve.
    catalogModels: /^(gemini|gemma)-/,
    connectionCheck: {
      path: "/models",
      headers: (apiKey): Record<string, string> => (apiKey ? { "x-goog-api-key": apiKey } : {}),
    },
  },
  ollama: {
    label: "Ollama",
    logo: "/providers/ollama.svg",
    apiKeyRequired: false,
    baseUrlVariable: "OLLAMA_BASE_URL",
    defaultBaseUrl: "http://127.0.0.1:11434",
    // OLLAMA_BASE_URL is the server root; its OpenAI-compatible API lives under /v1.
    languageModel: (model, { baseURL, fetch }) =>
      createOpenAICompatible({
        name: "ollama",
        baseURL: `${baseURL}/v1`,
        includeUsage: true,
        supportsStructuredOutputs: true,
        fetch,
      }).chatModel(model),
    embedding: {
      model: (model, { baseURL, fetch }) =>
        createOpenAICompatible({ name: "ollama", baseURL: `${baseURL}/v1`, fetch }).embeddingModel(model),
      maxBatchSize: 256,
    },
    pickerModels: [
      {
        model: "llama3.2",
        label: "Ollama: llama3.2 (or any ollama/<model>)",
        description:
          "A model served by Ollama at OLLAMA_BASE_URL. Unpriced unless providers/price-overrides.json prices it.",
      },
    ],
    // The server root: its own list of the models it holds.
    connectionCheck: { path: "/api/tags", headers: () => ({}) },
  },
  "openai-compatible": {
    label: "OpenAI-compatible server",
    logo: "/providers/openai-compatible.svg",
    apiKeyVariable: "OPENAI_COMPATIBLE_API_KEY",
    apiKeyRequired: false,
    baseUrlVariable: "OPENAI_COMPATIBLE_BASE_URL",
    languageModel: (model, { apiKey, baseURL, fetch }) => {
      if (!baseURL) {
        throw new ProviderCallError(
          "openai-compatible",
          "OpenAI-compatible models need a server: set OPENAI_COMPATIBLE_BASE_URL (for example http://127.0.0.1:8000/v1)",
          {
            code: "missing_base_url",
          },
        );
      }
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        apiKey,
        includeUsage: true,
        fetch,
      }).chatModel(model);
    },
    embedding: {
      model: (model, { apiKey, baseURL, fetch }) => {
        if (!baseURL) {
          throw new ProviderCallError(
            "openai-compatible",
            "OpenAI-compatible embedding models need a server: set OPENAI_COMPATIBLE_BASE_URL",
            {
              code: "missing_base_url",
            },
          );
        }
        return createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey, fetch }).embeddingModel(model);
      },
      maxBatchSize: 256,
    },
    pickerModels: [
      {
        model: "<model>",
        label: "OpenAI-compatible server (type openai-compatible/<model>)",
        description: "Any server at OPENAI_COMPATIBLE_BASE_URL (vLLM, LM Studio, OpenRouter).",
      },
    ],
    connectionCheck: { path: "/models", headers: bearer },
  },
  offline: {
    label: "Built-in offline model",
    logo: "/providers/offline.svg",
    apiKeyRequired: false,
    languageModel: (model, connection) => {
      if (model !== "echo")
        throw new ProviderCallError(
          "offline",
          `The offline provider has one model, offline/echo; "${model}" does not exist`,
          { code: "invalid_model_id" },
        );
      return createOfflineModel(model, connection.pace);
    },
    pickerModels: [
      {
        model: "echo",
        label: "Offline echo (not a language model)",
        description:
          "Built in, needs no key and no network. It is not a language model: it answers deterministically by echoing the prompt word by word, routes to the path whose name and description share the most words with the message, scores evaluator metrics from simple text features (length, structure, shared words), and fills other structured output with schema defaults. Tokens are counted with the o200k_base tokenizer; cost is 0.",
      },
    ],
    inProcess: true,
  },
} satisfies Record<string, ProviderEntry>;

/** The providers of docs/CONTRACT.md section 3, the first part of a Trellis model id. */
export type ProviderId = keyof typeof PROVIDER_TABLE;

export const PROVIDERS: Record<ProviderId, ProviderEntry> = PROVIDER_TABLE;

export const PROVIDER_IDS = Object.keys(PROVIDERS) as ProviderId[];

export function isProviderId(value: string): value is ProviderId {
  return Object.hasOwn(PROVIDERS, value);
}
