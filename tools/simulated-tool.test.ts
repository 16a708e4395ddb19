import { jsonSchema, tool } from "ai";
import { describe, expect, it } from "vitest";
import { toolEntries, type SimulationSource } from "@/contract";
import { createSimulation, type ChildSpan } from "@/core";
import { calculatorToolProvider } from "./calculator";
import { createToolRegistry } from "./registry";
import type { ToolContext, ToolProvider } from "./types";

/** A side-effecting provider whose tools count their real calls; `peek` it says is read-only. */
function sendingProvider(calls: string[]): ToolProvider {
  const make = (name: string) =>
    tool({
      description: name,
      inputSchema: jsonSchema<{ text: string }>({ type: "object", properties: { text: { type: "string" } } }),
      execute: async ({ text }) => {
        calls.push(`${name}:${text}`);
        return { sent: text };
      },
    });
  return {
    tools: [{ type: "sender", label: "Sender", description: "Sends things." }],
    sideEffects: true,
    createTools(_entries, context) {
      context.markReadOnly?.("peek");
      return { send: make("send"), notify: make("notify"), peek: make("peek") };
    },
  };
}

function toolContext(marks: Map<string, SimulationSource>, simulated: boolean): ToolContext {
  const span = (id: string): ChildSpan => ({
    id,
    child: () => span(`${id}.child`),
    end: () => {},
    markSimulated: (source) => void marks.set(id, source),
  });
  const context: ToolContext = {
    runId: "r",
    workflowId: "w",
    blockId: "agent",
    signal: new AbortController().signal,
    depth: 0,
    variables: {},
    toolSpan: (toolCallId) => span(toolCallId),
    startSpan: () => span("other"),
  };
  if (simulated)
    context.simulation = createSimulation(
      "Agent",
      { tools: { send: { status: 202, body: "queued (sample)" } } },
      () => {},
    );
  return context;
}

const call = (definition: { execute?: unknown } | undefined, toolCallId: string, text: string) =>
  (definition?.execute as (input: unknown, options: unknown) => Promise<unknown>)(
    { text },
    { toolCallId, messages: [] },
  );

describe("side-effecting tools in a test run", () => {
  it("answer from the block's sample or say there is none, mark the call's span, and never execute; read-only and other tools run", async () => {
    const calls: string[] = [];
    const marks = new Map<string, SimulationSource>();
    const registry = createToolRegistry([sendingProvider(calls), calculatorToolProvider]);
    const tools = await registry.resolve(toolEntries(["sender", "calculator"]), toolContext(marks, true));

    expect(await call(tools.send, "c1", "hello")).toEqual({ status: 202, body: "queued (sample)" });
    const missing = (await call(tools.notify, "c2", "hi")) as { simulated: string; noSample: string };
    expect(missing.simulated).toBe("no-sample");
    expect(missing.noSample).toBe(
      `Test run: the call of the tool "notify" was not made, and block 'Agent' has no test sample for it. Add one under "Test sample" in the block's inspector.`,
    );
    expect(await call(tools.peek, "c3", "look")).toEqual({ sent: "look" });
    expect(
      await tools.calculator?.execute?.({ expression: "6*7" }, { toolCallId: "c4", messages: [] } as never),
    ).toEqual({ expression: "6*7", result: 42 });

    expect(calls).toEqual(["peek:look"]);
    expect([...marks]).toEqual([
      ["c1", "sample"],
      ["c2", "no-sample"],
    ]);
  });

  it("execute as usual outside a test run", async () => {
    const calls: string[] = [];
    const marks = new Map<string, SimulationSource>();
    const tools = await createToolRegistry([sendingProvider(calls)]).resolve(
      toolEntries(["sender"]),
      toolContext(marks, false),
    );
    expect(await call(tools.send, "c1", "hello")).toEqual({ sent: "hello" });
    expect(calls).toEqual(["send:hello"]);
    expect(marks.size).toBe(0);
  });

  it("are listed with sideEffects in the tool catalog", () => {
    const list = createToolRegistry([sendingProvider([]), calculatorToolProvider]).list();
    expect(list.map((info) => [info.type, info.sideEffects === true])).toEqual([
      ["sender", true],
      ["calculator", false],
    ]);
  });
});
