import { describe, expect, it } from "vitest";
import { toolEntries } from "@/contract";
import { evaluateArithmetic } from "./evaluate-arithmetic";
import { createToolRegistry } from "../registry";
import { calculatorToolProvider } from "./calculator-tool";

const context = {
  runId: "r",
  workflowId: "w",
  blockId: "b",
  signal: new AbortController().signal,
  depth: 0,
  variables: {},
  toolSpan: () => undefined,
  startSpan: () => {
    throw new Error("not used");
  },
};

describe("calculator", () => {
  it("evaluates with precedence, parentheses and unary minus", () => {
    expect(evaluateArithmetic("(2 + 3) * 4")).toBe(20);
    expect(evaluateArithmetic("2 + 3 * 4 ^ 2")).toBe(50);
    expect(evaluateArithmetic("-2 ^ 2")).toBe(-4);
    expect(evaluateArithmetic("10 % 4 - .5")).toBe(1.5);
  });

  it("rejects anything that is not arithmetic", () => {
    expect(() => evaluateArithmetic("process.exit()")).toThrow(/unexpected/);
    expect(() => evaluateArithmetic("(1 + 2")).toThrow(/not closed/);
    expect(() => evaluateArithmetic("1 / 0")).toThrow(/finite/);
  });

  it("is served by the registry under its type, and unknown types are named", async () => {
    const registry = createToolRegistry([calculatorToolProvider]);
    const tools = await registry.resolve(toolEntries(["calculator"]), context);
    const result = await tools.calculator?.execute?.({ expression: "6*7" }, { toolCallId: "1", messages: [] } as never);
    expect(result).toEqual({ expression: "6*7", result: 42 });
    await expect(registry.resolve(toolEntries([{ type: "weather" }]), context)).rejects.toThrow(
      /unknown tool type "weather" \(available: calculator\)/,
    );
  });
});
