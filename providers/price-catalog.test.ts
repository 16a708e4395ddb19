import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkPriceModel, PRICE_CATALOG, pricedModels } from "./price-catalog";
import { listModels } from "./catalog";

describe("the price catalog's version and date", () => {
  it("names the version of @pydantic/genai-prices that package.json pins, with its publication date", () => {
    const pinned = (
      JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      }
    ).dependencies["@pydantic/genai-prices"];
    expect(PRICE_CATALOG).toEqual({
      source: "@pydantic/genai-prices",
      version: pinned,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });
});

describe("the model list priced for a workspace", () => {
  it("is the plain list when the workspace has no overrides", () => {
    expect(pricedModels({})).toBe(listModels());
    expect(listModels().find((model) => model.id === "openai/gpt-4o-mini")?.priceSource).toBe("catalog");
    expect(listModels().find((model) => model.id === "offline/echo")?.priceSource).toBe("operator-override");
  });

  it("shows an override's prices, marked, and adds a local model only the override prices", () => {
    const models = pricedModels({
      "openai/gpt-4o-mini": { input: 0.1, output: 0.4 },
      "ollama/qwen3:0.6b": { input: 0.01, output: 0.02 },
    });
    expect(models.find((model) => model.id === "openai/gpt-4o-mini")).toMatchObject({
      prices: { input: 0.1, output: 0.4 },
      priceSource: "workspace-override",
    });
    expect(models.find((model) => model.id === "openai/gpt-4o")?.priceSource).toBe("catalog");
    expect(models.find((model) => model.id === "ollama/qwen3:0.6b")).toMatchObject({
      unpriced: false,
      priceSource: "workspace-override",
      provider: "ollama",
    });
    // The shared list is not changed for other workspaces.
    expect(listModels().find((model) => model.id === "openai/gpt-4o-mini")?.prices).toMatchObject({
      input: 0.15,
      output: 0.6,
    });
  });

  it("prices every model of a provider with provider/*", () => {
    const ollama = pricedModels({ "ollama/*": { input: 0, output: 0.05 } }).filter(
      (model) => model.provider === "ollama",
    );
    expect(ollama.length).toBeGreaterThan(0);
    for (const model of ollama) expect(model).toMatchObject({ unpriced: false, priceSource: "workspace-override" });
  });
});

describe("which models a workspace may price", () => {
  it("accepts catalog models, dated catalog ids, provider/* and any local model", () => {
    for (const model of [
      "openai/gpt-4o-mini",
      "openai/gpt-4o-mini-2024-07-18",
      "anthropic/*",
      "ollama/llama3.2",
      "openai-compatible/meta-llama/Llama-3-8b",
      "offline/echo",
    ]) {
      expect([model, checkPriceModel(model)]).toEqual([model, null]);
    }
  });

  it("refuses an unknown provider and a model the catalog does not know, naming them", () => {
    expect(checkPriceModel("acme/gpt-9")).toMatch(/"acme" is not a model provider/);
    expect(checkPriceModel("openai/not-a-real-model-xyz")).toMatch(
      /openai\/not-a-real-model-xyz is not a model Trellis knows for OpenAI/,
    );
  });
});
