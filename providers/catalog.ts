import { findProvider } from "@pydantic/genai-prices";
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from "./provider-table";
import { modelOptionSpecs, type ModelSummary } from "@/contract";
import { resolvePricing } from "./pricing";
import { isRetiredModel } from "./retired-models";

/**
 * The model list the UI shows: plain data from the npm price catalog, the override file and the
 * provider table's picker models; no secrets and no node-only imports. It reaches the browser
 * through /api/models, since the provider table carries the SDK clients.
 */
/** A model as GET /api/models lists it, with its provider known to this layer. */
export type CatalogModel = ModelSummary & { provider: ProviderId };

export const OFFLINE_MODEL_ID = "offline/echo";

/**
 * Catalog entries the agent cannot call: not chat models (embeddings, speech, moderation, images,
 * live audio), fine-tuning price rows (`ft:`, `.ft-`), and OpenAI models served only by its
 * Responses API (codex, the -pro models, computer use, deep research, search previews), since
 * Trellis calls Chat Completions.
 */
const NOT_CHAT_MODELS =
  /embedding|whisper|moderation|transcribe|tts|dall-e|image|realtime|audio|live|computer-use|deep-research|search-preview|codex|-pro$|ft[:-]/i;

let cached: CatalogModel[] | undefined;

/** What a provider offers: its picker models, then the chat models the price catalog lists for it. */
function providerModels(provider: ProviderId): CatalogModel[] {
  const entry = PROVIDERS[provider];
  const listed = (entry.pickerModels ?? []).map((picked): CatalogModel => {
    const id = `${provider}/${picked.model}`;
    const pricing = resolvePricing(id);
    const item: CatalogModel = {
      id,
      provider,
      logo: entry.logo,
      label: picked.label,
      description: picked.description,
      prices: pricing?.prices ?? null,
      unpriced: pricing === null,
      providerOptions: modelOptionSpecs(id),
    };
    if (pricing) item.priceSource = pricing.source;
    if (entry.inProcess) item.offline = true;
    return item;
  });
  const catalogEntry = entry.priceCatalogId ? findProvider({ providerId: entry.priceCatalogId }) : undefined;
  const catalogued = (catalogEntry?.models ?? [])
    .filter((model) => !model.deprecated && !model.id.includes(":") && !NOT_CHAT_MODELS.test(model.id))
    .filter((model) => !entry.catalogModels || entry.catalogModels.test(model.id))
    .filter((model) => !isRetiredModel(provider, model.id))
    .map((model) => {
      const id = `${provider}/${model.id}`;
      const pricing = resolvePricing(id);
      const item: CatalogModel = {
        id,
        provider,
        logo: entry.logo,
        label: `${entry.label}: ${model.name ?? model.id}`,
        prices: pricing?.prices ?? null,
        unpriced: pricing === null,
        providerOptions: modelOptionSpecs(id),
      };
      if (pricing) item.priceSource = pricing.source;
      if (model.context_window) item.contextWindow = model.context_window;
      if (model.description) item.description = model.description;
      return item;
    });
  return [...listed, ...catalogued];
}

/** In-process providers first: their models work before any key is set. */
function pickerOrder(): ProviderId[] {
  const inProcess = PROVIDER_IDS.filter((provider) => PROVIDERS[provider].inProcess);
  return [...inProcess, ...PROVIDER_IDS.filter((provider) => !inProcess.includes(provider))];
}

/** Every model the UI offers, offline model first, retired models left out. Computed once per process. */
export function listModels(): CatalogModel[] {
  cached ??= pickerOrder().flatMap(providerModels);
  return cached;
}

/** The catalog entry of a model id, including ids not listed (typed-in Ollama models). */
export function describeModel(id: string): CatalogModel | undefined {
  return listModels().find((model) => model.id === id);
}
