import { findProvider } from "@pydantic/genai-prices";
import { PROVIDER_SETTINGS, type ProviderId } from "./env";
import { resolvePricing, type ModelPrices } from "./pricing";

/**
 * The model list the UI shows. Client-safe: plain data from the npm price catalog and the
 * override file, no secrets and no node-only imports.
 */
export interface CatalogModel {
  /** Trellis model id, `provider/model`. */
  id: string;
  provider: ProviderId;
  label: string;
  description?: string;
  contextWindow?: number;
  /** US dollars per million tokens; null when unknown. */
  prices: ModelPrices | null;
  unpriced: boolean;
  /** True for `offline/echo`: it needs no key and is not a language model. */
  offline?: boolean;
}

export const OFFLINE_MODEL_ID = "offline/echo";

const OFFLINE_MODEL: CatalogModel = {
  id: OFFLINE_MODEL_ID,
  provider: "offline",
  label: "Offline echo (not a language model)",
  description:
    "Built in, needs no key and no network. It is not a language model: it answers deterministically by echoing the prompt, picks the first route named in the prompt, and fills structured output with schema defaults. Tokens are counted with the o200k_base tokenizer; cost is 0.",
  prices: { input: 0, output: 0, cachedInput: 0, cacheWrite: 0 },
  unpriced: false,
  offline: true,
};

/** Ids a user can type for providers the catalog cannot enumerate (their servers hold the list). */
const OPEN_ENDED: CatalogModel[] = [
  {
    id: "ollama/llama3.2",
    provider: "ollama",
    label: "Ollama: llama3.2 (or any ollama/<model>)",
    description: "A model served by Ollama at OLLAMA_BASE_URL. Unpriced unless providers/price-overrides.json prices it.",
    prices: null,
    unpriced: true,
  },
  {
    id: "openai-compatible/<model>",
    provider: "openai-compatible",
    label: "OpenAI-compatible server (type openai-compatible/<model>)",
    description: "Any server at OPENAI_COMPATIBLE_BASE_URL (vLLM, LM Studio, OpenRouter).",
    prices: null,
    unpriced: true,
  },
];

const CATALOG_PROVIDERS: Array<Extract<ProviderId, "openai" | "anthropic" | "google">> = ["openai", "anthropic", "google"];

/** Catalog entries that are not chat models (embeddings, speech, moderation, images). */
const NOT_CHAT_MODELS = /embedding|whisper|moderation|transcribe|tts|dall-e|image|realtime|audio/i;

let cached: CatalogModel[] | undefined;

function catalogModels(provider: (typeof CATALOG_PROVIDERS)[number]): CatalogModel[] {
  const entry = findProvider({ providerId: provider });
  if (!entry) return [];
  return entry.models
    .filter((model) => !model.deprecated && !model.id.includes(":") && !NOT_CHAT_MODELS.test(model.id))
    .map((model) => {
      const id = `${provider}/${model.id}`;
      const pricing = resolvePricing(id);
      const item: CatalogModel = {
        id,
        provider,
        label: `${PROVIDER_SETTINGS[provider].label}: ${model.name ?? model.id}`,
        prices: pricing?.prices ?? null,
        unpriced: pricing === null,
      };
      if (model.context_window) item.contextWindow = model.context_window;
      if (model.description) item.description = model.description;
      return item;
    });
}

/** Every model the UI offers, offline model first. Computed once. */
export function listModels(): CatalogModel[] {
  cached ??= [OFFLINE_MODEL, ...CATALOG_PROVIDERS.flatMap(catalogModels), ...OPEN_ENDED];
  return cached;
}

/** The catalog entry of a model id, including ids not listed (typed-in Ollama models). */
export function describeModel(id: string): CatalogModel | undefined {
  return listModels().find((model) => model.id === id);
}
