import { describe, expect, it } from "vitest";
import { matchModels, typedModelProblem } from "./model-matches";

const model = (id: string, label: string) => ({ id, label, provider: id.slice(0, id.indexOf("/")) });

const models = [
  model("offline/echo", "Offline echo (not a language model)"),
  model("openai/chatgpt-4o-latest", "OpenAI: chatgpt-4o-latest"),
  model("openai/gpt-4o-mini", "OpenAI: gpt-4o-mini"),
  model("openai/gpt-4o", "OpenAI: gpt-4o"),
  model("anthropic/claude-sonnet-4-5", "Anthropic: Claude Sonnet 4.5"),
];

describe("matchModels", () => {
  it("puts the exact model name first, then names that start with it, then the rest", () => {
    expect(matchModels(models, "gpt-4o").map((found) => found.id)).toEqual([
      "openai/gpt-4o",
      "openai/gpt-4o-mini",
      "openai/chatgpt-4o-latest",
    ]);
  });

  it("ranks an exact id and an exact label above looser matches", () => {
    expect(matchModels(models, "openai/gpt-4o")[0]!.id).toBe("openai/gpt-4o");
    expect(matchModels(models, "claude sonnet 4.5")[0]!.id).toBe("anthropic/claude-sonnet-4-5");
    expect(matchModels(models, "Claude")[0]!.id).toBe("anthropic/claude-sonnet-4-5");
  });

  it("lists every model in order for a blank query, and nothing for one that matches nowhere", () => {
    expect(matchModels(models, "  ")).toEqual(models);
    expect(matchModels(models, "llama")).toEqual([]);
  });
});

describe("typedModelProblem", () => {
  const providers = new Set(["offline", "openai", "ollama"]);

  it("accepts provider/model of a known provider, even a model the list lacks", () => {
    expect(typedModelProblem("ollama/qwen3", providers)).toBeNull();
    expect(typedModelProblem("openai/gpt-4o", providers)).toBeNull();
  });

  it("refuses an id without a provider, with an unknown provider, or with spaces, saying what to type", () => {
    expect(typedModelProblem("gpt-4oo", providers)).toMatch(/not a model in the list.*provider\/model/);
    expect(typedModelProblem("openai/", providers)).toMatch(/not a model in the list/);
    expect(typedModelProblem("chatgpt/gpt-4o", providers)).toBe(
      '"chatgpt" is not a model provider; use one of: offline, openai, ollama',
    );
    expect(typedModelProblem("openai/gpt 4o", providers)).toMatch(/not a model in the list/);
  });
});
