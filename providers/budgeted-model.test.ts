import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jsonSchema, tool } from "ai";
import { BudgetExceededError, SpendLedger } from "@/core";
import { runModel } from "./model-call";
import { resolvePricing } from "./pricing";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";
import { createTestModelRegistry } from "./testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";
import { countPromptTokens, DEFAULT_BUDGETED_OUTPUT_TOKENS, worstCaseCost } from "./worst-case-cost";

/** The budget seam of runModel, with the real AI SDK client against the test server: what it sends, and what it never sends. */

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const MODEL = "openai/gpt-4o-mini";
const prices = resolvePricing(MODEL)!.prices;
const USAGE = { prompt: 500, completion: 2_000 };
const CALL_COST = (USAGE.prompt * prices.input + USAGE.completion * prices.output) / 1e6;

function budgeted(maxCost: number) {
  const context = createInMemoryHandlerContext();
  const refused: string[] = [];
  const ledger = new SpendLedger({ caps: [{ maxCost, source: "workflow", spentBefore: 0 }] });
  const budget = ledger.forBlock("Agent", (error) => refused.push(error.message));
  return { ledger, refused, hooks: { signal: context.signal, startSpan: context.startSpan, budget } };
}

const lookup = tool({
  description: "Looks a word up",
  inputSchema: jsonSchema<{ word: string }>({ type: "object", properties: { word: { type: "string" } } }),
  execute: async () => "found",
});

describe("a budgeted model call", () => {
  it("checks each step of a tool loop: the loop stops before the step that could cross the cap, which is never sent", async () => {
    // Each step allows 2,000 output tokens; the cap leaves room for two steps, not three.
    const worstOutput = (USAGE.completion * prices.output) / 1e6;
    const cap = 2 * CALL_COST + worstOutput - CALL_COST / 2;
    for (let step = 0; step < 5; step++)
      server.enqueue({
        kind: "tool-calls",
        calls: [{ name: "lookup", arguments: { word: `w${step}` } }],
        usage: USAGE,
      });
    const { ledger, refused, hooks } = budgeted(cap);
    const run = runModel({
      model: createTestModelRegistry(server).resolve(MODEL),
      messages: [{ role: "user", content: "Look words up until told to stop." }],
      maxOutputTokens: USAGE.completion,
      tools: { lookup },
      maxSteps: 10,
      hooks,
    });
    await expect(run).rejects.toBeInstanceOf(BudgetExceededError);
    expect(server.requests).toHaveLength(2);
    expect(refused).toHaveLength(1);
    expect(ledger.committed).toBeCloseTo(2 * CALL_COST, 10);
  });

  it("sends a call with no maxTokens with the output limit its worst case was counted at", async () => {
    server.enqueue({ kind: "text", text: "Fine.", usage: USAGE });
    const { hooks } = budgeted(1);
    await runModel({
      model: createTestModelRegistry(server).resolve(MODEL),
      messages: [{ role: "user", content: "Hi" }],
      hooks,
    });
    expect(server.requests[0]!.body.max_tokens ?? server.requests[0]!.body.max_completion_tokens).toBe(
      DEFAULT_BUDGETED_OUTPUT_TOKENS,
    );
  });

  it("counts the prompt it would send, tool definitions included, at the model's prices", async () => {
    const prompt = [
      { role: "user" as const, content: [{ type: "text" as const, text: "Hello there, how are you today?" }] },
    ];
    const bare = await countPromptTokens({ prompt });
    const withTools = await countPromptTokens({
      prompt,
      tools: [
        {
          type: "function",
          name: "lookup",
          description: "Looks a word up in a very large dictionary",
          inputSchema: { type: "object" },
        },
      ],
    });
    expect(bare).toBeGreaterThanOrEqual(7);
    expect(withTools).toBeGreaterThan(bare + 8);
    const pricing = resolvePricing(MODEL)!;
    expect(worstCaseCost(pricing, 1_000, 4_000)).toBeCloseTo((1_000 * prices.input + 4_000 * prices.output) / 1e6, 12);
  });
});
