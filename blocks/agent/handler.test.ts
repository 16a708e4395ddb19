import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createModelRegistry } from "@/providers/model-registry";
import { resolvePricing } from "@/providers/pricing";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { calculatorToolProvider } from "@/tools/calculator/calculator-tool";
import { createToolRegistry } from "@/tools/registry";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createAgentHandler } from "./handler";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const tools = createToolRegistry([calculatorToolProvider]);
const agent = () => withConfigParsing("agent", createAgentHandler({ models: createTestModelRegistry(server), tools }));

describe("agent handler", () => {
  it("streams its answer and reports tokens and cost = usage x catalog price, in output and span", async () => {
    server.enqueue({
      kind: "text",
      text: "Refunds take 5 days.",
      chunks: ["Refunds ", "take ", "5 days."],
      usage: { prompt: 245, completion: 48 },
    });
    const context = createInMemoryHandlerContext();
    const { output, usage } = await agent()({
      config: {
        model: "openai/gpt-4o-mini",
        systemPrompt: "You are support.",
        userPrompt: "Refund policy?",
        temperature: 0.7,
        maxTokens: 200,
      },
      inputs: {},
      context,
    });
    const p = resolvePricing("openai/gpt-4o-mini")!.prices;
    const cost = { input: (245 * p.input) / 1e6, output: (48 * p.output) / 1e6 };
    expect(context.deltas).toEqual(["Refunds ", "take ", "5 days."]);
    expect(output).toMatchObject({
      content: "Refunds take 5 days.",
      model: "openai/gpt-4o-mini",
      tokens: { prompt: 245, completion: 48, total: 293 },
      toolCalls: { list: [], count: 0 },
    });
    expect((output.cost as { input: number }).input).toBeCloseTo(cost.input, 12);
    expect((output.cost as { total: number }).total).toBeCloseTo(cost.input + cost.output, 12);
    expect(usage).toEqual({ tokens: output.tokens, cost: output.cost });
    expect(context.spans).toHaveLength(1);
    expect(context.spans[0]?.usage).toEqual(usage);
    expect(output.providerTiming).toMatchObject({ iterations: 1, toolsTime: 0 });
    const body = server.requests[0]!.body;
    expect(body).toMatchObject({ temperature: 0.7, max_tokens: 200 });
    expect(body.messages).toEqual([
      { role: "system", content: "You are support." },
      { role: "user", content: "Refund policy?" },
    ]);
  });

  it("sends memories as earlier messages", async () => {
    const memories = [
      { role: "user", content: "What blocks are there?" },
      { role: "assistant", content: "Agent, Router, Evaluator." },
    ];
    await agent()({
      config: { model: "openai/gpt-4o-mini", userPrompt: "And the router?", memories: JSON.stringify(memories) },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(server.requests[0]!.body.messages).toEqual([...memories, { role: "user", content: "And the router?" }]);
  });

  it("runs the tool loop: tool spans, toolCalls list and timing, summed usage", async () => {
    server.enqueue(
      {
        kind: "tool-calls",
        calls: [{ name: "calculator", arguments: { expression: "6*7" } }],
        usage: { prompt: 100, completion: 20 },
      },
      { kind: "text", text: "It is 42.", usage: { prompt: 140, completion: 5 } },
    );
    const context = createInMemoryHandlerContext();
    const { output, usage } = await agent()({
      config: { model: "anthropic/claude-sonnet-4-5", userPrompt: "What is 6*7?", tools: ["calculator"] },
      inputs: {},
      context,
    });
    expect(output.content).toBe("It is 42.");
    expect(output.toolCalls).toMatchObject({
      count: 1,
      list: [{ name: "calculator", arguments: { expression: "6*7" }, result: { expression: "6*7", result: 42 } }],
    });
    expect(context.spans.map((span) => `${span.kind}:${span.name}`)).toEqual([
      "model:anthropic/claude-sonnet-4-5",
      "tool:calculator",
      "model:anthropic/claude-sonnet-4-5",
    ]);
    expect(context.spans[1]).toMatchObject({ input: { expression: "6*7" }, output: { result: 42 } });
    expect(usage?.tokens).toMatchObject({ prompt: 240, completion: 25, total: 265 });
    const spanCosts = context.spans.filter((span) => span.kind === "model").map((span) => span.usage!.cost!.total);
    expect(usage!.cost!.total).toBeCloseTo(spanCosts[0]! + spanCosts[1]!, 12);
    const timing = output.providerTiming as {
      modelTime: number;
      toolsTime: number;
      duration: number;
      iterations: number;
    };
    expect(timing.iterations).toBe(2);
    expect(timing.modelTime + timing.toolsTime).toBeLessThanOrEqual(timing.duration + 1);
  });

  it("stops the tool loop after maxIterations model calls", async () => {
    for (let i = 0; i < 3; i++)
      server.enqueue({ kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: `${i}+1` } }] });
    const { output } = await agent()({
      config: { model: "openai/gpt-4o-mini", userPrompt: "Loop", tools: ["calculator"], maxIterations: 2 },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(server.requests).toHaveLength(2);
    expect((output.providerTiming as { iterations: number }).iterations).toBe(2);
    expect(server.pending()).toBe(1);
    server.requests.length = 0;
    await agent()({
      config: { model: "openai/gpt-4o-mini", userPrompt: "drain the unused answer" },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
  });

  it("asks for structured output and spreads its fields into the output", async () => {
    server.enqueue({
      kind: "json",
      value: { title: "Refunds", tags: ["policy"] },
      usage: { prompt: 30, completion: 12 },
    });
    const schema = {
      type: "object",
      properties: { title: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
      required: ["title", "tags"],
      additionalProperties: false,
    };
    const { output } = await agent()({
      config: { model: "openai/gpt-4o-mini", userPrompt: "Summarise", responseFormat: { name: "summary", schema } },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(output).toMatchObject({
      title: "Refunds",
      tags: ["policy"],
      content: '{"title":"Refunds","tags":["policy"]}',
      tokens: { total: 42 },
    });
    expect(server.requests[0]!.body.response_format).toMatchObject({ type: "json_schema", json_schema: { schema } });
  });

  it("fails on a broken stream with the partial text kept", async () => {
    server.enqueue({ kind: "broken-stream", text: "Half an ans", chunks: ["Half ", "an ans"] });
    const context = createInMemoryHandlerContext();
    const error = await agent()({
      config: { model: "google/gemini-2.5-flash", userPrompt: "Hi" },
      inputs: {},
      context,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "stream_interrupted",
      partialOutput: { content: "Half an ans", model: "google/gemini-2.5-flash" },
    });
  });

  it("fails on its time limit with the partial text and the tokens spent so far, counted and marked estimated", async () => {
    // The provider streams slowly, then stalls: it never sends the usage it would report at the end.
    server.enqueue({
      kind: "stalled-stream",
      text: "The refund takes five",
      chunks: ["The refund ", "takes five"],
      delayMs: 20,
    });
    const context = createInMemoryHandlerContext();
    const timed = withConfigParsing(
      "agent",
      createAgentHandler({ models: createTestModelRegistry(server, {}, { callTimeoutMs: 400 }), tools }),
    );
    const error = (await timed({
      config: { model: "openai/gpt-4o-mini", userPrompt: "How long do refunds take?" },
      inputs: {},
      context,
    }).catch((e: unknown) => e)) as {
      code: string;
      spent: { tokens: { prompt: number; completion: number }; cost: { total: number }; estimated?: boolean };
      partialOutput: unknown;
    };
    expect(error).toMatchObject({ code: "timeout" });
    expect(error.partialOutput).toMatchObject({
      content: "The refund takes five",
      model: "openai/gpt-4o-mini",
      estimated: true,
    });
    expect(error.spent.tokens.prompt).toBeGreaterThan(0);
    expect(error.spent.tokens.completion).toBeGreaterThan(0);
    expect(error.spent.cost.total).toBeGreaterThan(0);
    expect(error.spent.estimated).toBe(true);
    expect(context.spans[0]).toMatchObject({ error: { code: "timeout" }, usage: { estimated: true } });
  });

  it("rejects bad config and unknown tools with errors naming the field", async () => {
    await expect(
      agent()({ config: { model: "openai/gpt-4o-mini" }, inputs: {}, context: createInMemoryHandlerContext() }),
    ).rejects.toThrow(/userPrompt/);
    await expect(
      agent()({ config: { userPrompt: "x", tools: ["weather"] }, inputs: {}, context: createInMemoryHandlerContext() }),
    ).rejects.toThrow(/unknown tool type "weather"/);
    await expect(
      agent()({
        config: { userPrompt: "x", memories: "not json" },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }),
    ).rejects.toThrow(/memories/);
  });

  it("runs on the offline model with no key and no network", async () => {
    const offline = withConfigParsing(
      "agent",
      createAgentHandler({ models: createModelRegistry({ env: () => undefined, offlinePace: { wordDelayMs: 0 } }) }),
    );
    const context = createInMemoryHandlerContext();
    const { output, usage } = await offline({ config: { userPrompt: "Hello offline" }, inputs: {}, context });
    const answer = "Echo: Hello offline\n\n[offline model, not a language model]";
    expect(output).toMatchObject({ content: answer, model: "offline/echo", cost: { input: 0, output: 0, total: 0 } });
    expect(usage?.tokens.total).toBeGreaterThan(0);
    expect(context.deltas.join("")).toBe(answer);
  });
});

describe("agent fallback models", () => {
  it("answers with the next model when the first fails at the provider before anything ran", async () => {
    server.enqueue(
      { kind: "error", status: 400, message: "model not enabled for this key" },
      { kind: "text", text: "Refunds take 5 days.", usage: { prompt: 120, completion: 9 } },
    );
    const context = createInMemoryHandlerContext();
    const { output } = await agent()({
      config: {
        model: "openai/gpt-4o-mini",
        userPrompt: "Refund policy?",
        fallbackModels: ["anthropic/claude-sonnet-4-5"],
      },
      inputs: {},
      context,
    });
    expect(output).toMatchObject({ content: "Refunds take 5 days.", model: "anthropic/claude-sonnet-4-5" });
    expect(context.deltas.join("")).toBe("Refunds take 5 days.");
    const modelSpans = context.spans.filter((span) => span.kind === "model");
    expect(modelSpans.map((span) => [span.model, span.error?.code ?? null])).toEqual([
      ["openai/gpt-4o-mini", "provider_error"],
      ["anthropic/claude-sonnet-4-5", null],
    ]);
    expect(modelSpans[1]!.usage!.cost!.total).toBeGreaterThan(0);
  });

  it("does not fall back once a tool ran: the turn would run its tools again", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: "2+2" } }] },
      { kind: "error", status: 400, message: "refused mid-turn" },
    );
    await expect(
      agent()({
        config: {
          model: "openai/gpt-4o-mini",
          userPrompt: "What is 2+2?",
          tools: ["calculator"],
          fallbackModels: ["anthropic/claude-sonnet-4-5"],
        },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }),
    ).rejects.toMatchObject({ code: "provider_error" });
    expect(server.requests.map((request) => request.parsed.model)).toEqual(["gpt-4o-mini", "gpt-4o-mini"]);
  });
});
