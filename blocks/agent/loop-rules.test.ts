import { jsonSchema, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resolvePricing } from "@/providers/pricing";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { calculatorToolProvider } from "@/tools/calculator/calculator-tool";
import { createToolRegistry } from "@/tools/registry";
import type { ToolProvider } from "@/tools/types";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createAgentHandler } from "./handler";
import { prunedNote } from "./step-preparer";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** A second tool, so steps can differ in what they offer. Its answer is long, to fill the context. */
const lookupToolProvider: ToolProvider = {
  tools: [{ type: "lookup", label: "Lookup", description: "Looks a key up." }],
  createTools: () => ({
    lookup: tool({
      description: "Looks a key up in the notes.",
      inputSchema: jsonSchema<{ key: string }>({
        type: "object",
        properties: { key: { type: "string" } },
        required: ["key"],
        additionalProperties: false,
      }),
      execute: async ({ key }) => ({ key, value: `notes about ${key} `.repeat(40) }),
    }),
  }),
};

const registry = createToolRegistry([calculatorToolProvider, lookupToolProvider]);
const agent = () =>
  withConfigParsing("agent", createAgentHandler({ models: createTestModelRegistry(server), tools: registry }));
const run = (config: Record<string, unknown>, context = createInMemoryHandlerContext()) =>
  agent()({ config, inputs: {}, context });

const toolNamesOf = (index: number) => server.requests[index]!.parsed.toolNames;

describe("agent step rules", () => {
  it("offers each step only its rule's tools, forces the first step's tool and sets a step's temperature", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: "1+1" } }] },
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "refunds" } }] },
      { kind: "text", text: "Done." },
    );
    const { output } = await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "Work",
      temperature: 0.9,
      tools: ["calculator", "lookup"],
      stepRules: [
        { fromStep: 1, toStep: 1, activeTools: ["calculator"], toolChoice: { tool: "calculator" } },
        { fromStep: 2, activeTools: ["lookup"], temperature: 0.1 },
      ],
    });
    expect(output.content).toBe("Done.");
    expect(server.requests).toHaveLength(3);
    expect(toolNamesOf(0)).toEqual(["calculator"]);
    expect(server.requests[0]!.body).toMatchObject({
      tool_choice: { type: "function", function: { name: "calculator" } },
      temperature: 0.9,
    });
    expect(toolNamesOf(1)).toEqual(["lookup"]);
    expect(server.requests[1]!.body.temperature).toBe(0.1);
    expect(server.requests[1]!.body.tool_choice).toBe("auto");
    expect(toolNamesOf(2)).toEqual(["lookup"]);
  });

  it("caps each step's output by its rule's maxOutputTokens, else by the agent's maxTokens", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: "1+1" } }] },
      { kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: "2+2" } }] },
      { kind: "text", text: "Done." },
    );
    await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "Work",
      maxTokens: 900,
      tools: ["calculator"],
      stepRules: [
        { fromStep: 1, toStep: 1, maxOutputTokens: 40 },
        { fromStep: 3, maxOutputTokens: 2000 },
      ],
    });
    expect(server.requests.map((request) => request.body.max_tokens)).toEqual([40, 900, 2000]);
  });

  it("sends a forced tool choice in Anthropic's and Gemini's shapes too", async () => {
    const rules = [
      { toStep: 1, toolChoice: { tool: "lookup" } },
      { fromStep: 2, toolChoice: "none" },
    ];
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "a" } }] },
      { kind: "text", text: "ok" },
    );
    await run({
      model: "anthropic/claude-sonnet-4-5",
      userPrompt: "x",
      tools: ["calculator", "lookup"],
      stepRules: rules,
    });
    expect(server.requests[0]!.body.tool_choice).toEqual({ type: "tool", name: "lookup" });
    expect(server.requests[1]!.body.tool_choice).toEqual({ type: "none" });

    server.requests.length = 0;
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "a" } }] },
      { kind: "text", text: "ok" },
    );
    await run({ model: "google/gemini-2.5-flash", userPrompt: "x", tools: ["calculator", "lookup"], stepRules: rules });
    expect(server.requests[0]!.body.toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["lookup"] },
    });
    expect(server.requests[1]!.body.toolConfig).toEqual({ functionCallingConfig: { mode: "NONE" } });
  });

  it("fails naming the broken rule when the model ignores a forced tool", async () => {
    server.enqueue({ kind: "text", text: "I would rather not." });
    const error = await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "x",
      tools: ["calculator"],
      stepRules: [{ toStep: 1, toolChoice: { tool: "calculator" } }],
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "tool_choice_violated" });
    expect((error as Error).message).toMatch(
      /openai\/gpt-4o-mini did not follow the step's tool choice: .*required tool 'calculator'/,
    );
  });

  it("stops at the step cap even when every step must call a tool", async () => {
    for (let i = 0; i < 3; i++)
      server.enqueue({ kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: `${i}+1` } }] });
    const { output } = await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "Loop",
      tools: ["calculator"],
      maxIterations: 3,
      stepRules: [{ toolChoice: "required" }],
    });
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((request) => request.body.tool_choice === "required")).toBe(true);
    expect(output.toolCalls).toMatchObject({ count: 3 });
    expect((output.providerTiming as { iterations: number }).iterations).toBe(3);
  });

  it("prunes old tool results once the conversation passes the limit, keeping the last ones whole", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "first" } }] },
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "second" } }] },
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "third" } }] },
      { kind: "text", text: "Summarised." },
    );
    await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "Read",
      tools: ["lookup"],
      pruneToolResults: { afterTokens: 300, keepLast: 1 },
    });
    const toolMessages = (index: number) =>
      (server.requests[index]!.body.messages as Array<{ role: string; content: string }>)
        .filter((message) => message.role === "tool")
        .map((message) => message.content);
    // One result (about 240 tokens) is under the limit: sent whole.
    expect(toolMessages(1)).toHaveLength(1);
    expect(toolMessages(1)[0]).toContain("notes about first");
    // Two pass it: the older one is replaced by the note, the last is whole.
    expect(toolMessages(2)).toEqual([prunedNote("lookup"), expect.stringContaining("notes about second")]);
    expect(toolMessages(3)).toEqual([
      prunedNote("lookup"),
      prunedNote("lookup"),
      expect.stringContaining("notes about third"),
    ]);
  });

  it("does not prune under the limit", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "first" } }] },
      { kind: "tool-calls", calls: [{ name: "lookup", arguments: { key: "second" } }] },
      { kind: "text", text: "ok" },
    );
    await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "Read",
      tools: ["lookup"],
      pruneToolResults: { afterTokens: 100_000 },
    });
    const last = (server.requests[2]!.body.messages as Array<{ role: string; content: string }>).filter(
      (message) => message.role === "tool",
    );
    expect(last.map((message) => message.content)).toEqual([
      expect.stringContaining("notes about first"),
      expect.stringContaining("notes about second"),
    ]);
  });

  it("refuses a rule naming a tool the agent's tools do not give, before any model call", async () => {
    const error = await run({
      model: "openai/gpt-4o-mini",
      userPrompt: "x",
      tools: [{ type: "calculator", name: "calc" }],
      stepRules: [{ activeTools: ["lookup"] }],
    }).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).toMatch(
      /stepRules\[0\]\.activeTools\[0\]: "lookup" is not one of this agent.s tools \(its tools are calc\)/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe("agent provider options", () => {
  it("reach the wire in each provider's shape", async () => {
    await run({ model: "openai/o3-mini", userPrompt: "Think", providerOptions: { reasoningEffort: "high" } });
    expect(server.requests[0]!.body.reasoning_effort).toBe("high");

    await run({
      model: "anthropic/claude-sonnet-4-5",
      userPrompt: "Think",
      maxTokens: 4000,
      providerOptions: { thinkingBudget: 2048 },
    });
    expect(server.requests[1]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });

    await run({ model: "google/gemini-2.5-flash", userPrompt: "Think", providerOptions: { thinkingBudget: 512 } });
    expect(server.requests[2]!.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 512 });
  });

  it("are left out when not set", async () => {
    await run({ model: "openai/o3-mini", userPrompt: "Think" });
    expect(server.requests[0]!.body).not.toHaveProperty("reasoning_effort");
  });
});

describe("reasoning tokens", () => {
  const usage = { prompt: 1000, completion: 600, reasoning: 400 };
  for (const model of ["openai/o3-mini", "anthropic/claude-sonnet-4-5", "google/gemini-2.5-flash"]) {
    it(`are counted and priced apart in the output and the span (${model})`, async () => {
      server.enqueue({ kind: "text", text: "Answer.", usage });
      const context = createInMemoryHandlerContext();
      const { output, usage: spent } = await run({ model, userPrompt: "Think hard" }, context);
      const prices = resolvePricing(model)!.prices;
      const reasoningDollars = (400 * (prices.reasoning ?? prices.output)) / 1e6;
      expect(output.tokens).toEqual({ prompt: 1000, completion: 600, reasoning: 400, total: 1600 });
      const cost = output.cost as { input: number; output: number; reasoning: number; total: number };
      expect(cost.reasoning).toBeCloseTo(reasoningDollars, 12);
      // Reasoning is part of output, never added to the total twice.
      expect(cost.output).toBeCloseTo((200 * prices.output) / 1e6 + reasoningDollars, 12);
      expect(cost.total).toBeCloseTo(cost.input + cost.output, 12);
      expect(context.spans[0]!.usage).toEqual(spent);
      expect(context.spans[0]!.usage!.tokens.reasoning).toBe(400);
    });
  }

  it("are summed over the calls of a tool loop", async () => {
    server.enqueue(
      {
        kind: "tool-calls",
        calls: [{ name: "calculator", arguments: { expression: "1+1" } }],
        usage: { prompt: 100, completion: 50, reasoning: 30 },
      },
      { kind: "text", text: "2", usage: { prompt: 200, completion: 20, reasoning: 5 } },
    );
    const { output } = await run({ model: "openai/o3-mini", userPrompt: "1+1", tools: ["calculator"] });
    expect(output.tokens).toMatchObject({ completion: 70, reasoning: 35 });
    const prices = resolvePricing("openai/o3-mini")!.prices;
    expect((output.cost as { reasoning: number }).reasoning).toBeCloseTo(
      (35 * (prices.reasoning ?? prices.output)) / 1e6,
      12,
    );
  });
});
