import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WorkflowBlock } from "@/contract";
import { createModelRegistry } from "@/providers/model-registry";
import { resolvePricing } from "@/providers/pricing";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createRouterHandler } from "./handler";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const block = (id: string, name: string, systemPrompt: string): WorkflowBlock => ({
  id,
  type: "agent",
  name,
  position: { x: 0, y: 0 },
  parentId: null,
  enabled: true,
  config: { systemPrompt, userPrompt: "<start.message>", apiKey: "secret-value-not-for-prompts" },
});
const targets = [
  block("agent-sales", "Sales Agent", "You handle pricing and purchases."),
  block("agent-support", "Support Agent", "You fix technical problems."),
];
const config = {
  model: "openai/gpt-4o-mini",
  prompt: "Route pricing questions to sales, problems to support. Message: my app crashes",
};
const router = () => withConfigParsing("router", createRouterHandler({ models: createTestModelRegistry(server) }));
const context = () =>
  createInMemoryHandlerContext({ outgoingTargets: targets, block: { id: "router1", type: "router", name: "Router" } });

describe("router handler", () => {
  it("builds the routing prompt from the candidates and asks at temperature 0", async () => {
    server.enqueue({ kind: "text", text: "agent-support", usage: { prompt: 420, completion: 8 } });
    const { output, usage } = await router()({ config, inputs: {}, context: context() });
    expect(output).toMatchObject({
      selectedRoute: "agent-support",
      selectedPath: { blockId: "agent-support", blockType: "agent", blockTitle: "Support Agent" },
      model: "openai/gpt-4o-mini",
      tokens: { prompt: 420, completion: 8, total: 428 },
    });
    const p = resolvePricing("openai/gpt-4o-mini")!.prices;
    expect(usage!.cost!.total).toBeCloseTo((420 * p.input + 8 * p.output) / 1e6, 12);
    const body = server.requests[0]!.body;
    expect(body.temperature).toBe(0);
    const system: string = body.messages[0].content;
    for (const expected of [
      "ID: agent-sales",
      "Title: Sales Agent",
      "You handle pricing and purchases.",
      "ID: agent-support",
      "You fix technical problems.",
    ])
      expect(system).toContain(expected);
    expect(system).not.toContain("secret-value-not-for-prompts");
    expect(body.messages[1]).toEqual({ role: "user", content: config.prompt });
  });

  it("accepts the id ignoring case, quotes and whitespace", async () => {
    server.enqueue({ kind: "text", text: '  "Agent-Sales".\n' });
    const { output } = await router()({ config, inputs: {}, context: context() });
    expect(output.selectedRoute).toBe("agent-sales");
    expect(server.requests).toHaveLength(1);
  });

  it("retries once with a correction, summing both calls", async () => {
    server.enqueue(
      { kind: "text", text: "I think support is best", usage: { prompt: 400, completion: 6 } },
      { kind: "text", text: "agent-support", usage: { prompt: 430, completion: 4 } },
    );
    const ctx = context();
    const { output } = await router()({ config, inputs: {}, context: ctx });
    expect(output).toMatchObject({
      selectedRoute: "agent-support",
      tokens: { prompt: 830, completion: 10, total: 840 },
    });
    expect(server.requests).toHaveLength(2);
    const retry = server.requests[1]!.body.messages;
    expect(retry.at(-2)).toEqual({ role: "assistant", content: "I think support is best" });
    expect(retry.at(-1).content).toMatch(/is not one of the block IDs.*agent-sales, agent-support/);
    expect(ctx.spans.filter((span) => span.kind === "model")).toHaveLength(2);
  });

  it("fails after the corrective retry also misses", async () => {
    server.enqueue({ kind: "text", text: "billing" }, { kind: "text", text: "billing again" });
    await expect(router()({ config, inputs: {}, context: context() })).rejects.toMatchObject({
      code: "invalid_route",
      message: expect.stringMatching(/expected one of: agent-sales, agent-support/),
      spent: { tokens: { total: expect.any(Number) } },
    });
  });

  it("fails clearly with no connected blocks", async () => {
    await expect(router()({ config, inputs: {}, context: createInMemoryHandlerContext() })).rejects.toMatchObject({
      code: "no_route",
    });
  });

  it("routes offline to the candidate whose name and description share most words with the request, not always the first", async () => {
    const offline = withConfigParsing(
      "router",
      createRouterHandler({ models: createModelRegistry({ env: () => undefined, offlinePace: { wordDelayMs: 0 } }) }),
    );
    const route = async (prompt: string) =>
      (await offline({ config: { prompt }, inputs: {}, context: context() })).output.selectedRoute;
    // "problems" is in the support agent's system prompt only; the sales agent is listed first.
    expect(await route("Route this message: I have technical problems with the login")).toBe("agent-support");
    expect(await route("Route this message: what does the pricing look like for ten seats?")).toBe("agent-sales");
    // No shared word: the first candidate, as a tie always goes to the first listed.
    expect(await route("Route this message: hello there")).toBe("agent-sales");
    const { output } = await offline({ config: { prompt: "problems" }, inputs: {}, context: context() });
    expect(output).toMatchObject({ model: "offline/echo", cost: { total: 0 } });
  });
});

describe("router fallback models", () => {
  it("tries the next model when the first fails at the provider, each call in the trace with its cost", async () => {
    server.enqueue(
      { kind: "error", status: 400, message: "model overloaded for this account" },
      { kind: "text", text: "agent-support", usage: { prompt: 300, completion: 5 } },
    );
    const ctx = context();
    const { output, usage } = await router()({
      config: { ...config, fallbackModels: ["anthropic/claude-sonnet-4-5"] },
      inputs: {},
      context: ctx,
    });
    expect(output).toMatchObject({ selectedRoute: "agent-support", model: "anthropic/claude-sonnet-4-5" });
    expect(server.requests.map((request) => request.parsed.model)).toEqual(["gpt-4o-mini", "claude-sonnet-4-5"]);
    const modelSpans = ctx.spans.filter((span) => span.kind === "model");
    expect(modelSpans.map((span) => [span.model, span.error?.code ?? null])).toEqual([
      ["openai/gpt-4o-mini", "provider_error"],
      ["anthropic/claude-sonnet-4-5", null],
    ]);
    const p = resolvePricing("anthropic/claude-sonnet-4-5")!.prices;
    expect(modelSpans[1]!.usage!.cost!.total).toBeCloseTo((300 * p.input + 5 * p.output) / 1e6, 12);
    expect(usage!.cost!.total).toBeCloseTo(modelSpans[1]!.usage!.cost!.total, 12);
  });

  it("fails with the last model's error when every model fails, and without fallbacks with the first's", async () => {
    server.enqueue(
      { kind: "error", status: 400, message: "first refused" },
      { kind: "error", status: 404, message: "no such model" },
    );
    await expect(
      router()({ config: { ...config, fallbackModels: ["google/gemini-2.5-flash"] }, inputs: {}, context: context() }),
    ).rejects.toMatchObject({ code: "model_not_found" });
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    server.enqueue({ kind: "error", status: 400, message: "refused" });
    await expect(router()({ config, inputs: {}, context: context() })).rejects.toMatchObject({
      code: "provider_error",
    });
    expect(server.requests).toHaveLength(1);
  });
});
