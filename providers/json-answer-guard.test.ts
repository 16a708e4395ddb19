import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jsonSchema, Output, tool } from "ai";
import { z } from "zod";
import { MAX_JSON_DEPTH } from "@/contract";
import { runModel } from "./model-call";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";
import { createTestModelRegistry } from "./testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());
beforeEach(() => expect(server.pending()).toBe(0));

const usage = { prompt: 10, completion: 10 };
const nested = (depth: number): unknown => Array.from({ length: depth }).reduce<unknown>((inner) => [inner], 1);
const deepText = (depth: number) => `{"answer":${"[".repeat(depth)}1${"]".repeat(depth)}}`;

function call(options: Partial<Parameters<typeof runModel>[0]> = {}) {
  const context = createInMemoryHandlerContext();
  const hooks = { signal: context.signal, startSpan: context.startSpan, onTextDelta: context.emitDelta };
  const model = createTestModelRegistry(server).resolve("openai/gpt-4o-mini");
  return { context, result: runModel({ model, messages: [{ role: "user", content: "Go" }], hooks, ...options }) };
}

describe("a model's JSON answers nested past the limit", () => {
  it("fails a structured answer with a message naming the limit, not a stack overflow", async () => {
    server.enqueue({
      kind: "text",
      text: deepText(5_000),
      chunks: ['{"answer":', "[".repeat(5_000), "]".repeat(5_000), "}"],
      usage,
    });
    const { context, result } = call({
      output: Output.object({ schema: jsonSchema({ type: "object", properties: { answer: {} } }) }),
    });
    await expect(result).rejects.toMatchObject({
      code: "invalid_structured_output",
      message: `openai/gpt-4o-mini answered JSON that is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`,
    });
    expect(context.spans[0]?.error?.code).toBe("invalid_structured_output");
  });

  it("fails a tool call whose arguments are nested past the limit before the tool runs, naming the tool and where", async () => {
    server.enqueue({ kind: "tool-calls", calls: [{ name: "lookup", arguments: { query: nested(3_000) } }], usage });
    let ran = false;
    const lookup = tool({
      inputSchema: z.object({ query: z.unknown() }),
      execute: async () => {
        ran = true;
        return "found";
      },
    });
    const { result } = call({ tools: { lookup }, maxSteps: 3 });
    await expect(result).rejects.toMatchObject({
      code: "provider_error",
      message: `openai/gpt-4o-mini called the tool "lookup" with arguments whose JSON is nested deeper than the limit of ${MAX_JSON_DEPTH} levels (at query[0][0][0][0][0]…[0][0])`,
    });
    expect(ran).toBe(false);
  });

  it("lets answers within the limit through unchanged", async () => {
    server.enqueue({ kind: "text", text: deepText(90), usage });
    const { result } = call({
      output: Output.object({ schema: jsonSchema({ type: "object", properties: { answer: {} } }) }),
    });
    expect(JSON.stringify((await result).output)).toBe(deepText(90));
  });
});
