import { describe, expect, it } from "vitest";
import { listModels } from "./catalog";
import { checkModelOptions, modelOptionSpecs } from "@/contract";
import { sdkProviderOptions } from "./model-options";

describe("provider options a model accepts", () => {
  it("lists reasoning effort for OpenAI reasoning models, a thinking budget for thinking Claude and Gemini 2.5, none for others", () => {
    expect(modelOptionSpecs("openai/o3-mini").map((spec) => spec.name)).toEqual(["reasoningEffort"]);
    expect(modelOptionSpecs("openai/gpt-5")).toEqual([
      {
        name: "reasoningEffort",
        label: "Reasoning effort",
        kind: "select",
        values: ["minimal", "low", "medium", "high"],
      },
    ]);
    expect(modelOptionSpecs("openai/gpt-5-chat-latest")).toEqual([]);
    expect(modelOptionSpecs("anthropic/claude-sonnet-4-5")).toEqual([
      { name: "thinkingBudget", label: "Thinking budget (tokens)", kind: "number", min: 1024, max: 64_000 },
    ]);
    expect(modelOptionSpecs("anthropic/claude-3-5-haiku-latest")).toEqual([]);
    expect(modelOptionSpecs("google/gemini-2.5-pro")[0]).toMatchObject({ name: "thinkingBudget", min: 128 });
    expect(modelOptionSpecs("google/gemini-2.0-flash")).toEqual([]);
    for (const id of ["openai/gpt-4o-mini", "offline/echo", "ollama/llama3.2", "openai-compatible/o3"])
      expect(modelOptionSpecs(id)).toEqual([]);
  });

  it("are in the model list the editor reads (GET /api/models)", () => {
    const models = listModels();
    expect(models.find((model) => model.id === "offline/echo")?.providerOptions).toEqual([]);
    const o3 = models.find((model) => model.id === "openai/o3-mini");
    expect(o3?.providerOptions.map((spec) => spec.name)).toEqual(["reasoningEffort"]);
    expect(
      models.filter((model) => model.provider === "anthropic").some((model) => model.providerOptions.length > 0),
    ).toBe(true);
  });

  it("are checked against the model, each problem naming it", () => {
    expect(checkModelOptions("openai/o3", { reasoningEffort: "medium" })).toEqual([]);
    expect(checkModelOptions("google/gemini-2.5-flash", { thinkingBudget: 30_000 })).toEqual([
      { name: "thinkingBudget", message: "google/gemini-2.5-flash takes thinkingBudget from 0 to 24576; got 30000" },
    ]);
  });

  it("go to the AI SDK in the provider's own shape, and only to that provider", () => {
    expect(sdkProviderOptions("openai/o3", { reasoningEffort: "low" })).toEqual({ openai: { reasoningEffort: "low" } });
    expect(sdkProviderOptions("anthropic/claude-opus-4-1", { thinkingBudget: 4096 })).toEqual({
      anthropic: { thinking: { type: "enabled", budgetTokens: 4096 } },
    });
    expect(sdkProviderOptions("google/gemini-2.5-pro", { thinkingBudget: 1024 })).toEqual({
      google: { thinkingConfig: { thinkingBudget: 1024 } },
    });
    expect(sdkProviderOptions("openai/o3", undefined)).toBeUndefined();
    expect(sdkProviderOptions("offline/echo", { thinkingBudget: 10 })).toBeUndefined();
  });
});
