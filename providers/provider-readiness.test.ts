import { describe, expect, it } from "vitest";
import { listModels, OFFLINE_MODEL_ID } from "./catalog";
import { isRetiredModel } from "./retired-models";
import { missingProviderSetting, withProviderReadiness } from "./provider-readiness";

const envOf = (values: Record<string, string>) => (name: string) => values[name];

describe("which providers a workspace has set up", () => {
  it("names the key a provider needs, or the server an OpenAI-compatible one needs, and nothing for the offline model", () => {
    const env = envOf({ ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "  " });
    expect(missingProviderSetting("openai", env)).toBe("OPENAI_API_KEY");
    expect(missingProviderSetting("anthropic", env)).toBeUndefined();
    expect(missingProviderSetting("google", env)).toBe("GOOGLE_GENERATIVE_AI_API_KEY");
    expect(missingProviderSetting("openai-compatible", env)).toBe("OPENAI_COMPATIBLE_BASE_URL");
    expect(missingProviderSetting("ollama", env)).toBeUndefined();
    expect(missingProviderSetting("offline", env)).toBeUndefined();
  });

  it("reads keys from the workspace then the operator, base URLs from the operator alone, and marks a provider whose base URL a workspace stored", () => {
    const operator = envOf({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:8000/v1" });
    expect(
      missingProviderSetting("openai", { operator, workspace: envOf({ OPENAI_API_KEY: "sk-own" }) }),
    ).toBeUndefined();
    expect(missingProviderSetting("openai-compatible", { operator: envOf({}), workspace: envOf({}) })).toBe(
      "OPENAI_COMPATIBLE_BASE_URL",
    );
    expect(missingProviderSetting("openai-compatible", { operator, workspace: envOf({}) })).toBeUndefined();
    expect(
      missingProviderSetting("ollama", { operator, workspace: envOf({ OLLAMA_BASE_URL: "http://169.254.169.254" }) }),
    ).toBe("OLLAMA_BASE_URL");
  });

  it("marks each listed model whose provider has no key, keeping the offline model first and unmarked", () => {
    const marked = withProviderReadiness(listModels(), envOf({ OPENAI_API_KEY: "sk-test" }));
    expect(marked[0]).toMatchObject({ id: OFFLINE_MODEL_ID });
    expect(marked[0]!.missingSetting).toBeUndefined();
    expect(marked.find((model) => model.id === "openai/gpt-4o")!.missingSetting).toBeUndefined();
    expect(marked.find((model) => model.provider === "anthropic")!.missingSetting).toBe("ANTHROPIC_API_KEY");
  });
});

describe("the model list leaves retired models out", () => {
  it("lists current models but none a provider has shut down", () => {
    const ids = listModels().map((model) => model.id);
    expect(ids).toContain("openai/gpt-4o");
    expect(ids).toContain("anthropic/claude-sonnet-4-5");
    for (const retired of [
      "openai/davinci",
      "openai/gpt-4-32k",
      "openai/gpt-4.5-preview",
      "anthropic/claude-2",
      "anthropic/claude-3-opus-latest",
      "google/gemini-1.5-pro",
    ]) {
      expect(ids).not.toContain(retired);
    }
    // The catalog's Google entry prices Vertex's Claude; the Gemini API does not serve it.
    expect(ids.filter((id) => id.startsWith("google/claude"))).toEqual([]);
    // Not chat models, or not served by Chat Completions.
    expect(ids.filter((id) => /whisper|embedding|tts|realtime|ft-|deep-research/.test(id))).toEqual([]);
  });

  it("retires a family from its shutdown day on", () => {
    expect(isRetiredModel("openai", "chatgpt-4o-latest", "2026-02-16")).toBe(false);
    expect(isRetiredModel("openai", "chatgpt-4o-latest", "2026-02-17")).toBe(true);
    expect(isRetiredModel("anthropic", "claude-3-5-sonnet-20241022", "2026-01-01")).toBe(true);
    expect(isRetiredModel("anthropic", "claude-sonnet-4-5", "2026-01-01")).toBe(false);
  });
});
