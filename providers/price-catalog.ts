import type { PriceCatalogInfo } from "@/contract";
import { modelOptionSpecs } from "@/contract";
import { listModels, type CatalogModel } from "./catalog";
import { isProviderId, PROVIDER_IDS, PROVIDERS } from "./provider-table";
import { catalogPricing, findOverride, type PriceTable } from "./pricing";
import release from "./price-catalog-release.json";

/** The npm catalog the prices come from: its version and the day it was published (shown on the model picker). */
export const PRICE_CATALOG: PriceCatalogInfo = { source: release.source, version: release.version, date: release.date };

/**
 * The model picker's list priced for one workspace: a model its overrides match shows the
 * override's prices (marked `priceSource: "workspace-override"`), and a model id it prices that the
 * list lacks (a local Ollama or OpenAI-compatible model) is added, so the picker offers it priced.
 */
export function pricedModels(overrides: PriceTable): CatalogModel[] {
  const listed = listModels();
  if (Object.keys(overrides).length === 0) return listed;
  const priced = listed.map((model): CatalogModel => {
    const override = findOverride(model.id, overrides);
    return override
      ? { ...model, prices: { ...override.prices }, unpriced: false, priceSource: "workspace-override" }
      : model;
  });
  const known = new Set(listed.map((model) => model.id));
  const added = Object.entries(overrides)
    .filter(([model]) => !model.endsWith("/*") && !known.has(model))
    .flatMap(([id, prices]): CatalogModel[] => {
      const provider = id.slice(0, id.indexOf("/"));
      if (!isProviderId(provider)) return [];
      return [
        {
          id,
          provider,
          logo: PROVIDERS[provider].logo,
          label: `${PROVIDERS[provider].label}: ${id.slice(provider.length + 1)}`,
          description: "Priced by this workspace's override.",
          prices: { ...prices },
          unpriced: false,
          priceSource: "workspace-override",
          providerOptions: modelOptionSpecs(id),
        },
      ];
    });
  return [...priced, ...added];
}

/** Providers whose models are the server's own (Ollama, an OpenAI-compatible server): any model name may be priced. */
const OPEN_MODEL_LISTS: ReadonlySet<string> = new Set(
  PROVIDER_IDS.filter((provider) => !PROVIDERS[provider].priceCatalogId && !PROVIDERS[provider].inProcess),
);

/**
 * Why `model` cannot have a workspace price, or null when it can: `provider/*` of a known provider;
 * a model the catalog or the picker knows; any model of Ollama or an OpenAI-compatible server (they
 * hold their own lists: pricing a local model is what an override is for).
 */
export function checkPriceModel(model: string): string | null {
  const slash = model.indexOf("/");
  const provider = slash > 0 ? model.slice(0, slash) : "";
  const name = slash > 0 ? model.slice(slash + 1) : "";
  if (!isProviderId(provider))
    return `"${provider || model}" is not a model provider; use one of: ${PROVIDER_IDS.join(", ")}`;
  if (name === "*" || OPEN_MODEL_LISTS.has(provider)) return null;
  if (listModels().some((listed) => listed.id === model)) return null;
  if (catalogPricing(model) !== null) return null;
  return `${model} is not a model Trellis knows for ${PROVIDERS[provider].label}: choose one from the model list, or ${provider}/* for all of its models`;
}
