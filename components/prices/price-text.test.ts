import { describe, expect, it } from "vitest";
import { appliedPriceText, catalogText, ratesText } from "./price-text";

describe("price text", () => {
  it("names the catalog by package, version and date", () => {
    expect(catalogText({ source: "@pydantic/genai-prices", version: "0.1.8", date: "2026-09-23" })).toBe(
      "Prices: genai-prices 0.1.8 (2026-09-23)",
    );
  });

  it("shows the rates per million tokens, cache and reasoning only when set apart", () => {
    expect(ratesText({ input: 2, output: 8 })).toBe("$2 in · $8 out per 1M tokens");
    expect(ratesText({ input: 0.15, output: 0.6, cachedInput: 0.075, reasoning: 1 })).toBe(
      "$0.15 in · $0.6 out · $0.075 cached in · $1 reasoning per 1M tokens",
    );
  });

  it("says where an applied price came from and which override matched", () => {
    expect(
      appliedPriceText({ source: "workspace-override", match: "ollama/*", prices: { input: 0, output: 0.05 } }),
    ).toBe("this workspace's price (ollama/*): $0 in · $0.05 out per 1M tokens");
    expect(appliedPriceText({ source: "catalog", prices: { input: 1, output: 2 } })).toBe(
      "the price catalog: $1 in · $2 out per 1M tokens",
    );
  });
});
