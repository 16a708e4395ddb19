import { describe, expect, it } from "vitest";
import { computeCost, priceCall, priceUsage, resolvePricing } from "./pricing";
import { listModels, OFFLINE_MODEL_ID } from "./catalog";

describe("pricing", () => {
  it("reads cached-read and cache-write prices from the npm catalog", () => {
    const sonnet = resolvePricing("anthropic/claude-sonnet-4-5")!;
    expect(sonnet.source).toBe("catalog");
    expect(sonnet.prices.cachedInput).toBeLessThan(sonnet.prices.input);
    expect(sonnet.prices.cacheWrite).toBeGreaterThan(sonnet.prices.input);
    expect(resolvePricing("openai/gpt-4o-mini-2024-07-18")?.catalogModelId).toBe("gpt-4o-mini");
  });

  it("charges uncached, cache-read, cache-write and output tokens each at their price", () => {
    const pricing = resolvePricing("anthropic/claude-sonnet-4-5")!;
    const p = pricing.prices;
    const cost = computeCost(pricing, {
      prompt: 10_000,
      cachedPrompt: 6_000,
      cacheWrite: 3_000,
      completion: 2_000,
      total: 12_000,
    });
    const input = (1_000 * p.input + 6_000 * p.cachedInput! + 3_000 * p.cacheWrite!) / 1e6;
    const output = (2_000 * p.output) / 1e6;
    expect(cost.input).toBeCloseTo(input, 12);
    expect(cost.output).toBeCloseTo(output, 12);
    expect(cost.total).toBeCloseTo(input + output, 12);
  });

  it("applies a long-prompt tier to the whole call", () => {
    const pricing = resolvePricing("anthropic/claude-sonnet-4-5")!;
    const tier = pricing.tiers[0]!;
    const cost = computeCost(pricing, {
      prompt: tier.aboveInputTokens + 1,
      completion: 0,
      total: tier.aboveInputTokens + 1,
    });
    expect(cost.input).toBeCloseTo(((tier.aboveInputTokens + 1) * tier.prices.input) / 1e6, 12);
  });

  it("prices reasoning apart only when the catalog does", () => {
    const pricing = { prices: { input: 1, output: 2, reasoning: 5 }, tiers: [], source: "operator-override" as const };
    expect(
      computeCost(pricing, { prompt: 0, completion: 1_000_000, reasoning: 400_000, total: 1_000_000 }).output,
    ).toBe(0.6 * 2 + 0.4 * 5);
    const plain = { prices: { input: 1, output: 2 }, tiers: [], source: "operator-override" as const };
    expect(computeCost(plain, { prompt: 0, completion: 1_000_000, reasoning: 400_000, total: 1_000_000 }).output).toBe(
      2,
    );
  });

  it("shows the reasoning tokens' share of output apart, without adding it to the total", () => {
    const priced = { prices: { input: 1, output: 2, reasoning: 5 }, tiers: [], source: "operator-override" as const };
    const apart = computeCost(priced, {
      prompt: 1_000_000,
      completion: 1_000_000,
      reasoning: 400_000,
      total: 2_000_000,
    });
    expect(apart).toEqual({ input: 1, output: 0.6 * 2 + 0.4 * 5, reasoning: 0.4 * 5, total: 1 + 0.6 * 2 + 0.4 * 5 });
    const plain = { prices: { input: 1, output: 2 }, tiers: [], source: "operator-override" as const };
    expect(computeCost(plain, { prompt: 0, completion: 1_000_000, reasoning: 400_000, total: 1_000_000 })).toEqual({
      input: 0,
      output: 2,
      reasoning: 0.8,
      total: 2,
    });
    expect(computeCost(plain, { prompt: 0, completion: 1_000_000, total: 1_000_000 })).not.toHaveProperty("reasoning");
  });

  it("uses overrides first, and leaves unknown models unpriced", () => {
    expect(priceUsage("ollama/llama3.2", { prompt: 5, completion: 5, total: 10 })).toEqual({
      tokens: { prompt: 5, completion: 5, total: 10 },
      cost: null,
      unpriced: true,
    });
    const custom = priceUsage(
      "ollama/llama3.2",
      { prompt: 1_000_000, completion: 0, total: 1_000_000 },
      { overrides: { "ollama/*": { input: 0.1, output: 0.2 } } },
    );
    expect(custom.cost).toEqual({ input: 0.1, output: 0, total: 0.1 });
    expect(resolvePricing("offline/echo")?.source).toBe("operator-override");
  });
});

describe("catalog", () => {
  it("lists the offline model first, saying plainly it is not a language model", () => {
    const [first] = listModels();
    expect(first).toMatchObject({ id: OFFLINE_MODEL_ID, offline: true, unpriced: false });
    expect(first?.label).toMatch(/not a language model/);
  });

  it("lists priced chat models of each provider with context windows", () => {
    const models = listModels();
    const mini = models.find((model) => model.id === "openai/gpt-4o-mini");
    expect(mini).toMatchObject({ provider: "openai", unpriced: false, prices: { input: 0.15, output: 0.6 } });
    expect(mini?.contextWindow).toBeGreaterThan(100_000);
    for (const provider of ["anthropic", "google"])
      expect(models.some((model) => model.provider === provider && !model.unpriced)).toBe(true);
    expect(models.some((model) => /embedding|whisper/.test(model.id))).toBe(false);
    expect(models.find((model) => model.provider === "ollama")?.unpriced).toBe(true);
  });
});

describe("price precedence", () => {
  const tokens = { prompt: 1_000_000, completion: 1_000_000, total: 2_000_000 };

  it("takes the workspace's override before the operator's file and the catalog", () => {
    const workspace = { "openai/gpt-4o-mini": { input: 0.05, output: 0.1 } };
    expect(resolvePricing("openai/gpt-4o-mini", { overrides: workspace })).toMatchObject({
      source: "workspace-override",
      match: "openai/gpt-4o-mini",
    });
    expect(priceCall("openai/gpt-4o-mini", tokens, { overrides: workspace })).toEqual({
      usage: { tokens, cost: { input: 0.05, output: 0.1, total: 0.15 } },
      price: { source: "workspace-override", match: "openai/gpt-4o-mini", prices: { input: 0.05, output: 0.1 } },
    });
    // The operator's file prices offline/echo at 0; a workspace may price it otherwise.
    expect(resolvePricing("offline/echo", { overrides: { "offline/*": { input: 1, output: 1 } } })).toMatchObject({
      source: "workspace-override",
      match: "offline/*",
    });
    expect(resolvePricing("offline/echo")).toMatchObject({ source: "operator-override", match: "offline/echo" });
    expect(priceCall("openai/gpt-4o-mini", tokens).price).toEqual({
      source: "catalog",
      prices: { input: 0.15, output: 0.6, cachedInput: 0.075 },
    });
  });

  it("prefers the exact model id to its provider's provider/*", () => {
    const workspace = { "ollama/*": { input: 1, output: 1 }, "ollama/llama3.2": { input: 2, output: 3 } };
    expect(resolvePricing("ollama/llama3.2", { overrides: workspace })).toMatchObject({
      match: "ollama/llama3.2",
      prices: { input: 2, output: 3 },
    });
    expect(resolvePricing("ollama/qwen3", { overrides: workspace })).toMatchObject({
      match: "ollama/*",
      prices: { input: 1, output: 1 },
    });
  });

  it("applies a long-prompt tier's rates and says so in the applied price", () => {
    const pricing = resolvePricing("anthropic/claude-sonnet-4-5")!;
    const tier = pricing.tiers[0]!;
    const long = priceCall("anthropic/claude-sonnet-4-5", {
      prompt: tier.aboveInputTokens + 1,
      completion: 0,
      total: tier.aboveInputTokens + 1,
    });
    expect(long.price).toEqual({ source: "catalog", prices: tier.prices });
  });

  it("leaves an unpriced call without a price", () => {
    expect(priceCall("ollama/llama3.2", tokens)).toEqual({ usage: { tokens, cost: null, unpriced: true } });
  });
});
