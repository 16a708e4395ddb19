import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import type { ToolProvider } from "@/tools/types";
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
  executed.length = 0;
});

/** The calculator, with every call that reaches its `execute` written down. */
const executed: unknown[] = [];
const countingCalculator: ToolProvider = {
  ...calculatorToolProvider,
  createTools(entries, context) {
    const tools = calculatorToolProvider.createTools(entries, context) as Record<
      string,
      { execute: (input: unknown, options: unknown) => unknown }
    >;
    for (const tool of Object.values(tools)) {
      const execute = tool.execute;
      tool.execute = (input, options) => {
        executed.push(input);
        return execute(input, options);
      };
    }
    return tools as never;
  },
};

const agent = () =>
  withConfigParsing(
    "agent",
    createAgentHandler({ models: createTestModelRegistry(server), tools: createToolRegistry([countingCalculator]) }),
  );

/** The tool results of the last model request, as OpenAI Chat Completions carries them. */
function toolResultsSent(): Array<{ tool_call_id: string; content: string }> {
  return server.requests.at(-1)!.body.messages.filter((message: { role: string }) => message.role === "tool");
}

describe("a tool call the model gets wrong", () => {
  it("with arguments failing the tool's schema is never executed; the model reads why, and the agent finishes", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ id: "call_bad", name: "calculator", arguments: { expression: 42 } }] },
      { kind: "text", text: "Sorry, let me not do that." },
    );
    const context = createInMemoryHandlerContext();
    const { output } = await agent()({
      config: { model: "openai/gpt-4o-mini", userPrompt: "Add", tools: ["calculator"] },
      inputs: {},
      context,
    });

    expect(executed).toEqual([]);
    expect(server.requests).toHaveLength(2);
    const [result] = toolResultsSent();
    expect(result?.tool_call_id).toBe("call_bad");
    expect(result?.content).toMatch(/expression/);
    expect(result?.content).toMatch(/expected string/);
    expect(output.content).toBe("Sorry, let me not do that.");

    const toolSpans = context.spans.filter((span) => span.kind === "tool");
    expect(toolSpans).toHaveLength(1);
    expect(toolSpans[0]).toMatchObject({
      name: "calculator",
      input: { expression: 42 },
      error: { code: "invalid_tool_input" },
    });
    expect(toolSpans[0]!.error!.message).toMatch(/expression: .*expected string/);
    expect(output.toolCalls).toMatchObject({
      count: 1,
      list: [{ name: "calculator", arguments: { expression: 42 }, error: { code: "invalid_tool_input" } }],
    });
    expect(output.toolOutcomes).toEqual({ calculator: "error" });
  });

  it("naming a tool the agent does not have is never executed; the model reads why, and the agent finishes", async () => {
    server.enqueue(
      { kind: "tool-calls", calls: [{ id: "call_ghost", name: "weather", arguments: { city: "Oslo" } }] },
      { kind: "text", text: "I cannot check the weather." },
    );
    const context = createInMemoryHandlerContext();
    const { output } = await agent()({
      config: { model: "openai/gpt-4o-mini", userPrompt: "Weather?", tools: ["calculator"] },
      inputs: {},
      context,
    });

    expect(executed).toEqual([]);
    expect(server.requests).toHaveLength(2);
    const [result] = toolResultsSent();
    expect(result?.tool_call_id).toBe("call_ghost");
    expect(result?.content).toMatch(/weather/);
    expect(output.content).toBe("I cannot check the weather.");
    const toolSpans = context.spans.filter((span) => span.kind === "tool");
    expect(toolSpans).toEqual([
      expect.objectContaining({
        name: "weather",
        input: { city: "Oslo" },
        error: expect.objectContaining({ code: "unknown_tool" }),
      }),
    ]);
    expect(toolSpans[0]!.error!.message).toMatch(/does not have/);
  });

  it("still runs a call with good arguments next to a refused one", async () => {
    server.enqueue(
      {
        kind: "tool-calls",
        calls: [
          { id: "call_ok", name: "calculator", arguments: { expression: "2+2" } },
          { id: "call_extra", name: "calculator", arguments: { expression: "1", extra: true } },
        ],
      },
      { kind: "text", text: "4" },
    );
    const context = createInMemoryHandlerContext();
    await agent()({
      config: { model: "anthropic/claude-sonnet-4-5", userPrompt: "2+2", tools: ["calculator"] },
      inputs: {},
      context,
    });
    expect(executed).toEqual([{ expression: "2+2" }]);
    const results = server.requests.at(-1)!.body.messages.at(-1).content as Array<{
      tool_use_id: string;
      is_error?: boolean;
      content: unknown;
    }>;
    expect(results.find((part) => part.tool_use_id === "call_ok")?.is_error).toBeFalsy();
    expect(results.find((part) => part.tool_use_id === "call_extra")).toMatchObject({ is_error: true });
  });
});
