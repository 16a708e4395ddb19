import { createModelRegistry, type ModelRegistry } from "../model-registry";
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from "../provider-table";
import type { ParsedLlmRequest } from "./scripted-response";
import type { TestLlmServer } from "./test-llm-server";

/** Test keys: obviously fake, long enough to check they never leak into errors. */
export const TEST_KEYS = {
  OPENAI_API_KEY: "sk-test-openai-0123456789abcdef",
  ANTHROPIC_API_KEY: "test-anthropic-0123456789abcdef",
  GOOGLE_GENERATIVE_AI_API_KEY: "test-google-0123456789abcdef",
} as const;

/** How a provider reaches the test LLM server. */
export interface TestWireFormat {
  /** The server's protocol the provider's client speaks; null for a provider that needs no server. */
  protocol: ParsedLlmRequest["protocol"] | null;
  /** What its base URL setting is set to. */
  baseUrl?(server: TestLlmServer): string;
  apiKey?: string;
  /** A model id (after `provider/`) to try it with. */
  sampleModel: string;
}

/** One entry per provider, so a provider added to the table without one does not compile. */
export const TEST_WIRE_FORMATS: Record<ProviderId, TestWireFormat> = {
  openai: {
    protocol: "openai",
    baseUrl: (server) => server.openaiBaseUrl,
    apiKey: TEST_KEYS.OPENAI_API_KEY,
    sampleModel: "gpt-4o-mini",
  },
  anthropic: {
    protocol: "anthropic",
    baseUrl: (server) => server.anthropicBaseUrl,
    apiKey: TEST_KEYS.ANTHROPIC_API_KEY,
    sampleModel: "claude-sonnet-4-5",
  },
  google: {
    protocol: "gemini",
    baseUrl: (server) => server.googleBaseUrl,
    apiKey: TEST_KEYS.GOOGLE_GENERATIVE_AI_API_KEY,
    sampleModel: "gemini-2.5-flash",
  },
  ollama: { protocol: "openai", baseUrl: (server) => server.url, sampleModel: "llama3.2" },
  "openai-compatible": {
    protocol: "openai",
    baseUrl: (server) => server.openaiBaseUrl,
    sampleModel: "meta/llama-3-8b",
  },
  offline: { protocol: null, sampleModel: "echo" },
};

/** The environment that points every provider at the test server. */
export function testServerEnv(server: TestLlmServer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const provider of PROVIDER_IDS) {
    const { apiKeyVariable, baseUrlVariable } = PROVIDERS[provider];
    const wire = TEST_WIRE_FORMATS[provider];
    if (apiKeyVariable && wire.apiKey) env[apiKeyVariable] = wire.apiKey;
    if (baseUrlVariable && wire.baseUrl) env[baseUrlVariable] = wire.baseUrl(server);
  }
  return env;
}

/** A model registry wired to the test server, with fast deterministic retries. */
export function createTestModelRegistry(
  server: TestLlmServer,
  overrides: Record<string, string | undefined> = {},
  options: { callTimeoutMs?: number } = {},
): ModelRegistry {
  const env: Record<string, string | undefined> = { ...testServerEnv(server), ...overrides };
  return createModelRegistry({
    env: (name) => env[name],
    retry: { baseDelayMs: 10, maxDelayMs: 40, random: () => 0.5 },
    callTimeoutMs: options.callTimeoutMs,
  });
}
