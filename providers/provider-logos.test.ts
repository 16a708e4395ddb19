import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listModels } from "./catalog";
import { PROVIDER_IDS, PROVIDERS } from "./provider-table";

const publicDir = path.resolve(import.meta.dirname, "..", "public");

describe("provider logos", () => {
  it("give every provider its own SVG under public/, titled with the provider's label", async () => {
    const logos = PROVIDER_IDS.map((provider) => PROVIDERS[provider].logo);
    expect(new Set(logos).size).toBe(PROVIDER_IDS.length);
    for (const provider of PROVIDER_IDS) {
      const { logo, label } = PROVIDERS[provider];
      expect(logo).toMatch(/^\/providers\/[a-z-]+\.svg$/);
      const svg = await readFile(path.join(publicDir, logo), "utf8");
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 16 16">/);
      expect(svg).toContain(`<title>${label}</title>`);
    }
  });

  it("reach the model picker: every listed model carries its provider's logo", () => {
    const models = listModels();
    expect(new Set(models.map((model) => model.provider))).toEqual(
      new Set(PROVIDER_IDS.filter((id) => PROVIDERS[id].pickerModels || PROVIDERS[id].priceCatalogId)),
    );
    for (const model of models) expect(model.logo).toBe(PROVIDERS[model.provider].logo);
  });
});
