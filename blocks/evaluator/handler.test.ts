import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createModelRegistry } from "@/providers/model-registry";
import { resolvePricing } from "@/providers/pricing";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createEvaluatorHandler } from "./handler";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const config = {
  model: "openai/gpt-4o-mini",
  content: "Our refund policy allows returns within 30 days.",
  metrics: [
    { name: "Accuracy", description: "Is it correct?", range: { min: 1, max: 5 } },
    { name: "Clarity", description: "Is it clear?", range: { min: 0, max: 10 } },
  ],
};
const evaluator = () =>
  withConfigParsing("evaluator", createEvaluatorHandler({ models: createTestModelRegistry(server) }));

describe("evaluator handler", () => {
  it("asks for structured scores and outputs one number per lowercased metric", async () => {
    server.enqueue({ kind: "json", value: { accuracy: 4, clarity: 8.5 }, usage: { prompt: 180, completion: 15 } });
    const { output, usage } = await evaluator()({ config, inputs: {}, context: createInMemoryHandlerContext() });
    expect(output).toMatchObject({
      accuracy: 4,
      clarity: 8.5,
      model: "openai/gpt-4o-mini",
      tokens: { prompt: 180, completion: 15, total: 195 },
    });
    const p = resolvePricing("openai/gpt-4o-mini")!.prices;
    expect(usage!.cost!.total).toBeCloseTo((180 * p.input + 15 * p.output) / 1e6, 12);
    const body = server.requests[0]!.body;
    expect(body.response_format.json_schema.schema).toMatchObject({
      properties: { accuracy: { type: "number", minimum: 1, maximum: 5 }, clarity: { minimum: 0, maximum: 10 } },
      required: ["accuracy", "clarity"],
    });
    expect(body.messages[1].content).toContain("Our refund policy allows returns within 30 days.");
  });

  it("with explain on, asks for the reasons first and outputs them beside the scores; a missing reason is repaired", async () => {
    server.enqueue(
      { kind: "json", value: { reasoning: "", accuracy: 4, clarity: 8 } },
      { kind: "json", value: { reasoning: "Correct, but it omits how to return.", accuracy: 4, clarity: 8 } },
    );
    const { output } = await evaluator()({
      config: { ...config, explain: true },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(output).toMatchObject({ accuracy: 4, clarity: 8, reasoning: "Correct, but it omits how to return." });
    const schema = server.requests[0]!.body.response_format.json_schema.schema;
    expect(Object.keys(schema.properties)[0]).toBe("reasoning");
    expect(schema.required).toEqual(["reasoning", "accuracy", "clarity"]);
    expect(server.requests[1]!.body.messages.at(-1).content).toMatch(/"reasoning" must be a sentence/);
  });

  it("outputs no reasoning unless asked, and refuses a metric named like the reasons", async () => {
    server.enqueue({ kind: "json", value: { accuracy: 4, clarity: 8 } });
    const { output } = await evaluator()({ config, inputs: {}, context: createInMemoryHandlerContext() });
    expect(output).not.toHaveProperty("reasoning");
    await expect(
      evaluator()({
        config: { ...config, metrics: [{ name: "Reasoning", description: "", range: { min: 0, max: 1 } }] },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }),
    ).rejects.toThrow(/key of the model's reasons/);
  });

  it("repairs an out-of-range score once", async () => {
    server.enqueue(
      { kind: "json", value: { accuracy: 9, clarity: 5 } },
      { kind: "json", value: { accuracy: 5, clarity: 5 } },
    );
    const { output } = await evaluator()({ config, inputs: {}, context: createInMemoryHandlerContext() });
    expect(output).toMatchObject({ accuracy: 5, clarity: 5 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.messages.at(-1).content).toMatch(/"accuracy" is 9, outside 1 to 5/);
  });

  it("repairs an answer that is not JSON once", async () => {
    server.enqueue(
      { kind: "text", text: "Accuracy: four out of five" },
      { kind: "json", value: { accuracy: 4, clarity: 7 } },
    );
    const { output } = await evaluator()({ config, inputs: {}, context: createInMemoryHandlerContext() });
    expect(output).toMatchObject({ accuracy: 4, clarity: 7 });
    expect(server.requests[1]!.body.messages.at(-2)).toMatchObject({
      role: "assistant",
      content: "Accuracy: four out of five",
    });
  });

  it("fails when the repair is invalid too", async () => {
    server.enqueue({ kind: "json", value: { accuracy: 0, clarity: 5 } }, { kind: "json", value: { accuracy: 4 } });
    await expect(evaluator()({ config, inputs: {}, context: createInMemoryHandlerContext() })).rejects.toMatchObject({
      code: "invalid_scores",
      message: expect.stringMatching(/"clarity" must be a number/),
    });
  });

  it("scores offline from text features: different per metric and per content, always within range", async () => {
    const offline = withConfigParsing(
      "evaluator",
      createEvaluatorHandler({
        models: createModelRegistry({ env: () => undefined, offlinePace: { wordDelayMs: 0 } }),
      }),
    );
    const metrics = [
      { name: "Conciseness", description: "Is it brief and to the point?", range: { min: 1, max: 10 } },
      { name: "Completeness", description: "Does it give every detail?", range: { min: 1, max: 10 } },
      { name: "Refund", description: "Does it explain the refund policy and returns?", range: { min: 0, max: 5 } },
    ];
    const score = async (content: string) =>
      (
        await offline({
          config: { model: "offline/echo", content, metrics },
          inputs: {},
          context: createInMemoryHandlerContext(),
        })
      ).output as Record<string, unknown>;
    const short = await score("Our refund policy allows returns within 30 days.");
    const long = await score(
      Array.from(
        { length: 12 },
        (_, index) =>
          `Point ${index + 1}: shipping to region ${index + 1} takes a few extra days, and tracking is sent by email.`,
      ).join("\n"),
    );
    expect(short).toMatchObject({ model: "offline/echo", cost: { total: 0 } });
    for (const result of [short, long]) {
      expect(result.conciseness).toBeGreaterThanOrEqual(1);
      expect(result.conciseness).toBeLessThanOrEqual(10);
      expect(result.completeness).toBeGreaterThanOrEqual(1);
      expect(result.completeness).toBeLessThanOrEqual(10);
      expect(result.refund).toBeGreaterThanOrEqual(0);
      expect(result.refund).toBeLessThanOrEqual(5);
    }
    // Per metric: the short answer is concise, not complete. Per content: the long one the other way round.
    expect(short.conciseness).toBeGreaterThan(short.completeness as number);
    expect(long.completeness).toBeGreaterThan(short.completeness as number);
    expect(long.conciseness).toBeLessThan(short.conciseness as number);
    // Keyword overlap: only the short answer talks about refunds.
    expect(short.refund).toBeGreaterThan(long.refund as number);
  });
});

describe("evaluator fallback models", () => {
  it("scores with the fallback model when the first fails at the provider; the trace has both calls", async () => {
    server.enqueue(
      { kind: "error", status: 400, message: "not available to this key" },
      { kind: "json", value: { accuracy: 3, clarity: 7 }, usage: { prompt: 100, completion: 10 } },
    );
    const context = createInMemoryHandlerContext();
    const { output } = await evaluator()({
      config: { ...config, fallbackModels: ["anthropic/claude-sonnet-4-5"] },
      inputs: {},
      context,
    });
    expect(output).toMatchObject({ accuracy: 3, clarity: 7, model: "anthropic/claude-sonnet-4-5" });
    const modelSpans = context.spans.filter((span) => span.kind === "model");
    expect(modelSpans.map((span) => [span.model, span.error?.code ?? null])).toEqual([
      ["openai/gpt-4o-mini", "provider_error"],
      ["anthropic/claude-sonnet-4-5", null],
    ]);
    expect(modelSpans[1]!.usage!.cost!.total).toBeGreaterThan(0);
  });
});
