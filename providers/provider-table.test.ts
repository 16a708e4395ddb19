import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runModel } from "./model-call";
import { PROVIDER_IDS, PROVIDERS } from "./provider-table";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";
import { createTestModelRegistry, TEST_WIRE_FORMATS } from "./testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";

// Everything below iterates the table, so a new provider is checked by its entry alone.

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** docs/CONTRACT.md sections 3 and 4, as written there. */
const CONTRACT_SETTINGS = {
  openai: { apiKeyVariable: "OPENAI_API_KEY", baseUrlVariable: "OPENAI_BASE_URL" },
  anthropic: { apiKeyVariable: "ANTHROPIC_API_KEY", baseUrlVariable: "ANTHROPIC_BASE_URL" },
  google: { apiKeyVariable: "GOOGLE_GENERATIVE_AI_API_KEY", baseUrlVariable: "GOOGLE_GENERATIVE_AI_BASE_URL" },
  ollama: { baseUrlVariable: "OLLAMA_BASE_URL", defaultBaseUrl: "http://127.0.0.1:11434" },
  "openai-compatible": { apiKeyVariable: "OPENAI_COMPATIBLE_API_KEY", baseUrlVariable: "OPENAI_COMPATIBLE_BASE_URL" },
  offline: {},
};

describe("the provider table", () => {
  it("holds the contract's providers with the contract's variables", () => {
    expect(PROVIDER_IDS).toEqual(expect.arrayContaining(Object.keys(CONTRACT_SETTINGS)));
    for (const [provider, settings] of Object.entries(CONTRACT_SETTINGS))
      expect(PROVIDERS[provider as keyof typeof CONTRACT_SETTINGS]).toMatchObject(settings);
  });

  it("names every provider's variables alike, and gives every networked provider a base URL setting", () => {
    for (const provider of PROVIDER_IDS) {
      const { apiKeyVariable, baseUrlVariable, apiKeyRequired, inProcess } = PROVIDERS[provider];
      if (inProcess) {
        expect({ apiKeyVariable, baseUrlVariable, apiKeyRequired }).toEqual({
          apiKeyVariable: undefined,
          baseUrlVariable: undefined,
          apiKeyRequired: false,
        });
        continue;
      }
      expect(baseUrlVariable, provider).toMatch(/^[A-Z][A-Z_]*_BASE_URL$/);
      if (apiKeyVariable) expect(apiKeyVariable.replace(/_API_KEY$/, "_BASE_URL"), provider).toBe(baseUrlVariable);
      if (apiKeyRequired) expect(apiKeyVariable, provider).toBeDefined();
    }
  });

  for (const provider of PROVIDER_IDS) {
    const wire = TEST_WIRE_FORMATS[provider];
    it(`resolves and runs ${provider}/${wire.sampleModel} through the registry${wire.protocol ? ` over the ${wire.protocol} wire format` : ""}`, async () => {
      if (wire.protocol)
        server.enqueue({ kind: "text", text: `Hello from ${provider}`, usage: { prompt: 5, completion: 4 } });
      const context = createInMemoryHandlerContext();
      const model = createTestModelRegistry(server).resolve(`${provider}/${wire.sampleModel}`);
      const result = await runModel({
        model,
        messages: [{ role: "user", content: "Hello" }],
        hooks: { signal: context.signal, startSpan: context.startSpan },
      });
      expect(model.provider).toBe(provider);
      expect(result.usage.tokens.total).toBeGreaterThan(0);
      expect(context.spans).toHaveLength(1);
      if (wire.protocol) {
        expect(result.text).toBe(`Hello from ${provider}`);
        expect(server.requests.map((request) => [request.protocol, request.parsed.model])).toEqual([
          [wire.protocol, wire.sampleModel],
        ]);
      } else {
        expect(server.requests).toHaveLength(0);
      }
    });
  }

  for (const provider of PROVIDER_IDS.filter((id) => PROVIDERS[id].apiKeyRequired)) {
    const { label, apiKeyVariable = "" } = PROVIDERS[provider];
    it(`refuses ${provider} without its key, naming ${apiKeyVariable}`, () => {
      const resolve = () =>
        createTestModelRegistry(server, { [apiKeyVariable]: undefined }).resolve(
          `${provider}/${TEST_WIRE_FORMATS[provider].sampleModel}`,
        );
      expect(resolve).toThrow(`${label} needs an API key: set ${apiKeyVariable}`);
    });
  }
});
