import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jsonSchema, tool } from "ai";
import { runModel } from "./model-call";
import { computeCost, resolvePricing } from "./pricing";
import { countTokens } from "./token-counter";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";
import { createTestModelRegistry, TEST_KEYS } from "./testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  expect(server.pending()).toBe(0);
});

function hooks() {
  const context = createInMemoryHandlerContext();
  return { context, hooks: { signal: context.signal, startSpan: context.startSpan, onTextDelta: context.emitDelta } };
}

const hello = [{ role: "user" as const, content: "Hello there" }];

describe("runModel with the real AI SDK clients against the test server", () => {
  for (const model of ["openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5", "google/gemini-2.5-flash"]) {
    it(`streams text and prices the reported usage: ${model}`, async () => {
      server.enqueue({
        kind: "text",
        text: "Hi, how can I help?",
        chunks: ["Hi,", " how can", " I help?"],
        usage: { prompt: 1200, completion: 30, cachedPrompt: 1000 },
      });
      const { context, hooks: h } = hooks();
      const result = await runModel({
        model: createTestModelRegistry(server).resolve(model),
        messages: hello,
        hooks: h,
      });
      expect(result.text).toBe("Hi, how can I help?");
      expect(context.deltas).toEqual(["Hi,", " how can", " I help?"]);
      expect(result.usage.tokens).toMatchObject({ prompt: 1200, completion: 30, total: 1230, cachedPrompt: 1000 });
      const prices = resolvePricing(model)!.prices;
      expect(prices.input).toBeGreaterThan(0);
      const input = (200 * prices.input + 1000 * (prices.cachedInput ?? prices.input)) / 1e6;
      const output = (30 * prices.output) / 1e6;
      expect(result.usage.cost!.input).toBeCloseTo(input, 12);
      expect(result.usage.cost!.output).toBeCloseTo(output, 12);
      expect(result.usage.cost!.total).toBeCloseTo(input + output, 12);
      expect(result.usage.estimated).toBeUndefined();
      expect(context.spans).toHaveLength(1);
      expect(context.spans[0]).toMatchObject({ kind: "model", model, usage: result.usage });
      expect(server.requests[0]?.parsed.stream).toBe(true);
    });
  }

  it("asks OpenAI for usage in the stream and sends the key only in the header", async () => {
    await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      hooks: hooks().hooks,
    });
    const request = server.requests[0]!;
    expect(request.body.stream_options).toEqual({ include_usage: true });
    expect(request.headers.authorization).toBe(`Bearer ${TEST_KEYS.OPENAI_API_KEY}`);
  });

  it("runs a tool loop: one model span per call, timed apart from the tool", async () => {
    server.enqueue(
      {
        kind: "tool-calls",
        calls: [{ name: "add", arguments: { a: 2, b: 3 } }],
        usage: { prompt: 50, completion: 10 },
      },
      { kind: "text", text: "The sum is 5", usage: { prompt: 70, completion: 5 } },
    );
    const { context, hooks: h } = hooks();
    let modelSpansEndedBeforeTool = -1;
    const tools = {
      add: tool({
        description: "adds",
        inputSchema: jsonSchema<{ a: number; b: number }>({
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        }),
        execute: async ({ a, b }) => {
          modelSpansEndedBeforeTool = context.spans.filter((span) => span.endedAt !== undefined).length;
          return { sum: a + b };
        },
      }),
    };
    const result = await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      tools,
      maxSteps: 5,
      hooks: h,
    });
    expect(result.text).toBe("The sum is 5");
    expect(result.calls.map((call) => call.tokens.total)).toEqual([60, 75]);
    expect(result.usage.tokens).toMatchObject({ prompt: 120, completion: 15, total: 135 });
    expect(context.spans.map((span) => span.kind)).toEqual(["model", "model"]);
    expect(modelSpansEndedBeforeTool).toBe(1);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('{\\"sum\\":5}');
  });

  it("keeps the partial text when the stream breaks mid-answer", async () => {
    server.enqueue({ kind: "broken-stream", text: "Partial answer that", chunks: ["Partial ", "answer ", "that"] });
    const { context, hooks: h } = hooks();
    const error = await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      hooks: h,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "stream_interrupted", partialText: "Partial answer that" });
    expect(context.deltas.join("")).toBe("Partial answer that");
    expect(context.spans[0]?.error?.code).toBe("stream_interrupted");
    expect(server.requests).toHaveLength(1); // never retried once text has streamed
  });

  it("waits as long as Retry-After asks on a 429, then succeeds", async () => {
    server.enqueue({ kind: "error", status: 429, headers: { "retry-after": "1" } }, { kind: "text", text: "ok" });
    const started = performance.now();
    const result = await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      hooks: hooks().hooks,
    });
    expect(result.text).toBe("ok");
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("retries 5xx a bounded number of times, then names the failure", async () => {
    server.enqueue({ kind: "error", status: 503 }, { kind: "text", text: "recovered" });
    const recovered = await runModel({
      model: createTestModelRegistry(server).resolve("anthropic/claude-sonnet-4-5"),
      messages: hello,
      hooks: hooks().hooks,
    });
    expect(recovered.text).toBe("recovered");
    server.requests.length = 0;
    for (let i = 0; i < 4; i++) server.enqueue({ kind: "error", status: 500, message: "upstream exploded" });
    const error = await runModel({
      model: createTestModelRegistry(server).resolve("google/gemini-2.5-flash"),
      messages: hello,
      hooks: hooks().hooks,
    }).catch((e: unknown) => e);
    expect(server.requests).toHaveLength(4); // 1 + DEFAULT_RETRY_POLICY.maxRetries
    expect(error).toMatchObject({ code: "provider_unavailable", status: 500, retryable: true });
    expect(String((error as Error).message)).toMatch(/Google call for google\/gemini-2.5-flash failed \(HTTP 500\)/);
  });

  it("fails at once on a Retry-After longer than the policy accepts", async () => {
    server.enqueue({ kind: "error", status: 429, headers: { "retry-after": "3600" } });
    const error = await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      hooks: hooks().hooks,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "rate_limited", status: 429 });
    expect(server.requests).toHaveLength(1);
  });

  it("names the provider and the variable when the key is missing or rejected, without leaking it", async () => {
    expect(() =>
      createTestModelRegistry(server, { ANTHROPIC_API_KEY: undefined }).resolve("anthropic/claude-sonnet-4-5"),
    ).toThrow(/Anthropic needs an API key: set ANTHROPIC_API_KEY/);
    server.enqueue({ kind: "error", status: 401, message: `Incorrect API key provided: ${TEST_KEYS.OPENAI_API_KEY}` });
    const error = (await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      hooks: hooks().hooks,
    }).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: "invalid_api_key", provider: "openai" });
    expect(error.message).toMatch(/OpenAI rejected the API key \(HTTP 401\): check OPENAI_API_KEY/);
    expect(error.message).not.toContain(TEST_KEYS.OPENAI_API_KEY);
  });

  it("estimates tokens with the tokenizer only when the provider reports none", async () => {
    server.enqueue({ kind: "text", text: "No usage here", usage: null });
    const result = await runModel({
      model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"),
      messages: hello,
      hooks: hooks().hooks,
    });
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.tokens.completion).toBe(countTokens("No usage here"));
    expect(result.usage.tokens.prompt).toBe(countTokens("Hello there"));
  });

  it("flags a model with no known price as unpriced, never 0", async () => {
    server.enqueue({ kind: "text", text: "local answer", usage: { prompt: 10, completion: 3 } });
    const result = await runModel({
      model: createTestModelRegistry(server).resolve("ollama/llama3.2"),
      messages: hello,
      hooks: hooks().hooks,
    });
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(result.usage).toEqual({ tokens: { prompt: 10, completion: 3, total: 13 }, cost: null, unpriced: true });
  });

  it("serves any OpenAI-compatible server, unpriced, and rejects unknown providers by name", async () => {
    server.enqueue({ kind: "text", text: "compatible", usage: { prompt: 4, completion: 1 } });
    const result = await runModel({
      model: createTestModelRegistry(server).resolve("openai-compatible/meta/llama-3-8b"),
      messages: hello,
      hooks: hooks().hooks,
    });
    expect(result.text).toBe("compatible");
    expect(server.requests[0]?.body.model).toBe("meta/llama-3-8b");
    expect(result.usage.unpriced).toBe(true);
    expect(() => createTestModelRegistry(server).resolve("mistral/large")).toThrow(/Unknown model provider "mistral"/);
    expect(() => createTestModelRegistry(server).resolve("gpt-4o")).toThrow(/must look like provider\/model/);
  });

  it("stops when the run is cancelled and when a call exceeds its time limit", async () => {
    server.enqueue({ kind: "hang" });
    const { context, hooks: h } = hooks();
    setTimeout(() => context.abort(), 100);
    await expect(
      runModel({ model: createTestModelRegistry(server).resolve("openai/gpt-4o-mini"), messages: hello, hooks: h }),
    ).rejects.toMatchObject({
      code: "cancelled",
    });
    expect(context.spans[0]?.error?.code).toBe("cancelled");

    server.enqueue({ kind: "hang" });
    const slow = createTestModelRegistry(server, {}, { callTimeoutMs: 150 }).resolve("openai/gpt-4o-mini");
    await expect(runModel({ model: slow, messages: hello, hooks: hooks().hooks })).rejects.toMatchObject({
      code: "timeout",
      message: expect.stringMatching(/timed out/),
    });
  });

  it("keeps the partial text and counts the tokens of a call cancelled mid-stream (estimated: the provider reported none)", async () => {
    server.enqueue({
      kind: "stalled-stream",
      text: "Refunds take five",
      chunks: ["Refunds ", "take five"],
      delayMs: 10,
    });
    const { context, hooks: h } = hooks();
    setTimeout(() => context.abort(), 300);
    const error = (await runModel({
      model: createTestModelRegistry(server).resolve("anthropic/claude-sonnet-4-5"),
      messages: hello,
      hooks: h,
    }).catch((e: unknown) => e)) as {
      code: string;
      partialOutput: unknown;
      spent: { tokens: { prompt: number; completion: number }; estimated?: boolean };
    };
    expect(error.code).toBe("cancelled");
    expect(error.partialOutput).toEqual({ content: "Refunds take five" });
    expect(error.spent.tokens).toMatchObject({
      prompt: countTokens("Hello there"),
      completion: countTokens("Refunds take five"),
    });
    expect(error.spent.estimated).toBe(true);
    expect(context.spans[0]).toMatchObject({ error: { code: "cancelled" }, usage: { estimated: true } });
  });

  it("computes cost from the catalog exactly as computeCost does", () => {
    const pricing = resolvePricing("openai/gpt-4o-mini")!;
    expect(computeCost(pricing, { prompt: 1_000_000, completion: 1_000_000, total: 2_000_000 })).toEqual({
      input: 0.15,
      output: 0.6,
      total: 0.75,
    });
  });
});
