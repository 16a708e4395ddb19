import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateText, jsonSchema, tool } from "ai";
import { spawn } from "node:child_process";
import { startTestLlmServer, type TestLlmServer } from "./test-llm-server";
import { DEFAULT_REASONING_TOKENS } from "./default-responder";
import { createTestModelRegistry } from "./test-model-registry";
import { buildRouterSystemPrompt } from "@/blocks/router/router-prompt";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());

describe("test LLM server", () => {
  for (const model of ["openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5", "google/gemini-2.5-flash"]) {
    it(`answers non-streaming requests with tool calls and usage: ${model}`, async () => {
      server.enqueue({
        kind: "tool-calls",
        calls: [{ id: "call_1", name: "lookup", arguments: { q: "x" } }],
        usage: { prompt: 12, completion: 7 },
      });
      const result = await generateText({
        model: createTestModelRegistry(server).resolve(model).model,
        prompt: "find x",
        maxRetries: 0,
        tools: {
          lookup: tool({
            description: "look up",
            inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
          }),
        },
      });
      expect(result.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["lookup", { q: "x" }]]);
      expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 });
      expect(server.requests.at(-1)?.parsed.stream).toBe(false);
    });
  }

  it("by default routes to the candidate the request mentions, and echoes otherwise", async () => {
    const system = buildRouterSystemPrompt([
      {
        id: "sales",
        type: "agent",
        name: "Sales Agent",
        position: { x: 0, y: 0 },
        parentId: null,
        enabled: true,
        config: {},
      },
      {
        id: "support",
        type: "agent",
        name: "Support Agent",
        position: { x: 0, y: 0 },
        parentId: null,
        enabled: true,
        config: {},
      },
    ]);
    const model = createTestModelRegistry(server).resolve("openai/gpt-4o-mini").model;
    const routed = await generateText({
      model,
      system,
      prompt: "Customer message: I need support, the app crashes",
      maxRetries: 0,
    });
    expect(routed.text).toBe("support");
    const echoed = await generateText({ model, prompt: "Say hi", maxRetries: 0 });
    expect(echoed.text).toBe("Echo: Say hi");
    expect(echoed.usage.inputTokens).toBeGreaterThan(0);
  });

  it("by default reports reasoning tokens when a request asks for reasoning, in each wire format", async () => {
    const registry = createTestModelRegistry(server);
    const asks = {
      "openai/o3-mini": { openai: { reasoningEffort: "low" } },
      "anthropic/claude-sonnet-4-5": { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      "google/gemini-2.5-flash": { google: { thinkingConfig: { thinkingBudget: 256 } } },
    };
    for (const [model, providerOptions] of Object.entries(asks)) {
      const reasoned = await generateText({
        model: registry.resolve(model).model,
        prompt: "Think",
        maxRetries: 0,
        providerOptions,
      });
      expect(reasoned.usage.outputTokenDetails.reasoningTokens, model).toBe(DEFAULT_REASONING_TOKENS);
      const plain = await generateText({ model: registry.resolve(model).model, prompt: "Think", maxRetries: 0 });
      expect(plain.usage.outputTokenDetails.reasoningTokens ?? 0, model).toBe(0);
    }
  });

  for (const model of ["openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5", "google/gemini-2.5-flash"]) {
    it(`by default calls the tool a request forces, with the smallest arguments its schema allows: ${model}`, async () => {
      const lookup = tool({
        description: "look up",
        inputSchema: jsonSchema<{ q: string; limit: number }>({
          type: "object",
          properties: { q: { type: "string" }, limit: { type: "integer", minimum: 1 } },
          required: ["q", "limit"],
        }),
      });
      const result = await generateText({
        model: createTestModelRegistry(server).resolve(model).model,
        prompt: "find x",
        maxRetries: 0,
        tools: {
          other: tool({ description: "other", inputSchema: jsonSchema({ type: "object", properties: {} }) }),
          lookup,
        },
        toolChoice: { type: "tool", toolName: "lookup" },
      });
      expect(result.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["lookup", { q: "", limit: 1 }]]);
    });
  }

  it("runs standalone with tsx on a chosen port", async () => {
    const port = 40_000 + Math.floor(Math.random() * 10_000);
    const child = spawn(
      "node_modules/.bin/tsx",
      ["providers/testing/serve.ts", "--port", String(port), "--delay", "0"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
        child.once("exit", (code) => reject(new Error(`serve.ts exited with ${code}`)));
      });
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "ping" }] }),
      });
      const body = await response.json();
      expect(body.choices[0].message.content).toBe("Echo: ping");
      expect(body.usage.total_tokens).toBeGreaterThan(0);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
  }, 90_000);
});
