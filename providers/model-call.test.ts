import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tool, jsonSchema } from "ai";
import { createModelRegistry } from "./model-registry";
import { runModel } from "./model-call";
import { resolvePricing, computeCost } from "./pricing";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function registry(extra: Record<string, string> = {}) {
  const env: Record<string, string> = {
    OPENAI_API_KEY: "sk-test-openai-key-123456789",
    OPENAI_BASE_URL: server.openaiBaseUrl,
    ANTHROPIC_API_KEY: "anthropic-test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    GOOGLE_GENERATIVE_AI_API_KEY: "google-test-key",
    GOOGLE_GENERATIVE_AI_BASE_URL: server.googleBaseUrl,
    OLLAMA_BASE_URL: server.url,
    ...extra,
  };
  return createModelRegistry({ env: (name) => env[name], retry: { baseDelayMs: 5, maxDelayMs: 20, random: () => 0.5 } });
}

function hooks() {
  const context = createInMemoryHandlerContext();
  return { context, hooks: { signal: context.signal, startSpan: context.startSpan, onTextDelta: context.emitDelta } };
}

const userMessage = [{ role: "user" as const, content: "Hello there" }];

describe("runModel against the test server", () => {
  for (const model of ["openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5", "google/gemini-2.5-flash"]) {
    it(`streams text and prices the reported usage (${model})`, async () => {
      server.enqueue({ kind: "text", text: "Hi, how can I help?", chunks: ["Hi,", " how can", " I help?"], usage: { prompt: 1200, completion: 30, cachedPrompt: 1000 } });
      const { context, hooks: h } = hooks();
      const result = await runModel({ model: registry().resolve(model), messages: userMessage, hooks: h });
      expect(result.text).toBe("Hi, how can I help?");
      expect(context.deltas).toEqual(["Hi,", " how can", " I help?"]);
      expect(result.usage.tokens).toMatchObject({ prompt: 1200, completion: 30, total: 1230, cachedPrompt: 1000 });
      const pricing = resolvePricing(model)!;
      const p = pricing.prices;
      const input = (200 * p.input + 1000 * (p.cachedInput ?? p.input)) / 1e6;
      const output = (30 * p.output) / 1e6;
      expect(result.usage.cost?.input).toBeCloseTo(input, 12);
      expect(result.usage.cost?.output).toBeCloseTo(output, 12);
      expect(result.usage.cost).toEqual(computeCost(pricing, result.usage.tokens));
      expect(context.spans).toHaveLength(1);
      expect(context.spans[0]).toMatchObject({ kind: "model", model, usage: result.usage });
      expect(server.requests[0]?.parsed.stream).toBe(true);
    });
  }

  it("runs a tool loop, one model span per call", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "add", arguments: { a: 2, b: 3 } }], usage: { prompt: 50, completion: 10 } },
      { kind: "text", text: "The sum is 5", usage: { prompt: 70, completion: 5 } },
    );
    const { context, hooks: h } = hooks();
    const order: string[] = [];
    const tools = {
      add: tool({
        description: "adds",
        inputSchema: jsonSchema<{ a: number; b: number }>({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] }),
        execute: async ({ a, b }) => {
          order.push(`ended=${context.spans.filter((s) => s.endedAt !== undefined).length}`);
          return { sum: a + b };
        },
      }),
    };
    const result = await runModel({ model: registry().resolve("openai/gpt-4o-mini"), messages: userMessage, tools, maxSteps: 5, hooks: h });
    expect(result.text).toBe("The sum is 5");
    expect(result.calls).toHaveLength(2);
    expect(result.usage.tokens).toMatchObject({ prompt: 120, completion: 15, total: 135 });
    expect(context.spans.map((s) => s.kind)).toEqual(["model", "model"]);
    const second = server.requests[1]?.body;
    expect(JSON.stringify(second.messages)).toContain('{\\"sum\\":5}');
    console.log(order);
  });

  it("keeps the partial text when the stream breaks", async () => {
    server.enqueue({ kind: "broken-stream", text: "Partial answer that", chunks: ["Partial ", "answer ", "that"] });
    const { context, hooks: h } = hooks();
    const error = await runModel({ model: registry().resolve("openai/gpt-4o-mini"), messages: userMessage, hooks: h }).catch((e: unknown) => e);
    console.log(server.requests.map((r) => r.path), String(error));
    expect(error).toMatchObject({ code: "stream_interrupted", partialText: "Partial answer that" });
    expect(context.spans[0]?.error?.code).toBe("stream_interrupted");
  });
});
