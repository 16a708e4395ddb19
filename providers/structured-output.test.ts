import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvaluatorHandler } from "@/blocks/evaluator/handler";
import { createInMemoryHandlerContext } from "./testing/in-memory-handler-context";
import { createTestModelRegistry } from "./testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "./testing/test-llm-server";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());

// Each provider asks for structured output its own way; the default responder answers each.
describe("structured output through every provider", () => {
  for (const model of ["openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5", "google/gemini-2.5-flash"]) {
    it(model, async () => {
      const evaluator = createEvaluatorHandler({ models: createTestModelRegistry(server) });
      const { output } = await evaluator({
        config: {
          model,
          content: "Some text",
          metrics: [{ name: "Quality", description: "overall", range: { min: 2, max: 4 } }],
          explain: false,
          fallbackModels: [],
        },
        inputs: {},
        context: createInMemoryHandlerContext(),
      });
      expect(output).toMatchObject({ quality: 2, model });
      expect(server.requests.at(-1)?.parsed.jsonSchema).toMatchObject({ properties: { quality: { type: "number" } } });
    });
  }
});
