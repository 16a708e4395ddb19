import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workflowDocumentSchema, type RunEvent } from "@/contract";
import { executeWorkflow } from "@/executor";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { calculatorToolProvider } from "@/tools/calculator/calculator-tool";
import { createToolRegistry } from "@/tools/registry";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";
import { createAgentHandler } from "./handler";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startTestLlmServer();
});
afterAll(() => server.close());

/** Start -> Calc (an agent routing on its calculator's outcome) -> Answer on success, Apology on error; Audit always after out. */
const document = workflowDocumentSchema.parse({
  name: "Tool outcomes",
  blocks: [
    { id: "start", type: "start", name: "Start", config: {} },
    {
      id: "calc",
      type: "agent",
      name: "Calc",
      config: {
        model: "openai/gpt-4o-mini",
        userPrompt: "Compute",
        tools: [{ type: "calculator", routeOnOutcome: true }],
      },
    },
    { id: "answer", type: "response", name: "Answer", config: { data: "<Calc.toolOutcomes.calculator>" } },
    { id: "apology", type: "response", name: "Apology", config: { data: "<Calc.toolCalls.list[0].error.message>" } },
  ],
  edges: [
    { id: "e1", source: "start", target: "calc" },
    { id: "e2", source: "calc", target: "answer", sourceHandle: "tool:calculator:success" },
    { id: "e3", source: "calc", target: "apology", sourceHandle: "tool:calculator:error" },
  ],
});

async function run(expression: string | null) {
  if (expression !== null)
    server.enqueue({ kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression } }] });
  server.enqueue({ kind: "text", text: "Done." });
  const events: RunEvent[] = [];
  const tools = createToolRegistry([calculatorToolProvider]);
  const result = await executeWorkflow({
    document,
    lookupBlockType,
    lookupHandler: lookupHandlers({
      ...controlHandlers,
      agent: createAgentHandler({ models: createTestModelRegistry(server), tools }),
    }),
    observer: { event: (event) => events.push(event), span: () => undefined },
    runId: "r",
    workflowId: "w",
    input: {},
  });
  const ran = events.flatMap((event) => (event.type === "block.completed" ? [event.blockId] : []));
  const skipped = events.flatMap((event) => (event.type === "block.skipped" ? [event.blockId] : []));
  return { result, ran, skipped };
}

describe("engine: an agent's tool-outcome handles", () => {
  it("takes the success handle when the last call of the tool succeeded", async () => {
    const { result, ran, skipped } = await run("6*7");
    expect(result).toMatchObject({ status: "succeeded", output: "success" });
    expect(ran).toEqual(["start", "calc", "answer"]);
    expect(skipped).toEqual(["apology"]);
  });

  it("takes the error handle when the last call of the tool failed", async () => {
    const { result, ran, skipped } = await run("6*(");
    expect(result.status).toBe("succeeded");
    expect(typeof result.output === "string" && result.output.length > 0).toBe(true);
    expect(ran).toEqual(["start", "calc", "apology"]);
    expect(skipped).toEqual(["answer"]);
  });

  it("takes neither when the agent never called the tool", async () => {
    const { result, ran, skipped } = await run(null);
    expect(result.status).toBe("succeeded");
    expect(ran).toEqual(["start", "calc"]);
    expect(skipped.sort()).toEqual(["answer", "apology"]);
  });
});
