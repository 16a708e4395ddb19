import { createModelRegistry, type ModelRegistry } from "../model-registry";
import type { TestLlmServer } from "./test-llm-server";

/** Test keys: obviously fake, long enough to check they never leak into errors. */
export const TEST_KEYS = {
  OPENAI_API_KEY: "sk-test-openai-0123456789abcdef",
  ANTHROPIC_API_KEY: "test-anthropic-0123456789abcdef",
  GOOGLE_GENERATIVE_AI_API_KEY: "test-google-0123456789abcdef",
} as const;

/** The environment that points every provider at the test server. */
export function testServerEnv(server: TestLlmServer): Record<string, string> {
  return {
    ...TEST_KEYS,
    OPENAI_BASE_URL: server.openaiBaseUrl,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    GOOGLE_GENERATIVE_AI_BASE_URL: server.googleBaseUrl,
    OLLAMA_BASE_URL: server.url,
    OPENAI_COMPATIBLE_BASE_URL: server.openaiBaseUrl,
  };
}

/** A model registry wired to the test server, with fast deterministic retries. */
export function createTestModelRegistry(server: TestLlmServer, overrides: Record<string, string | undefined> = {}, options: { callTimeoutMs?: number } = {}): ModelRegistry {
  const env: Record<string, string | undefined> = { ...testServerEnv(server), ...overrides };
  return createModelRegistry({
    env: (name) => env[name],
    retry: { baseDelayMs: 10, maxDelayMs: 40, random: () => 0.5 },
    callTimeoutMs: options.callTimeoutMs,
  });
}
