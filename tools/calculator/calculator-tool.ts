import { jsonSchema, tool } from "ai";
import type { ToolProvider } from "../types";
import { evaluateArithmetic } from "./evaluate-arithmetic";

/** A deterministic `calculator` tool: exact, offline, handy for demos and tool-loop tests. */
export const calculatorToolProvider: ToolProvider = {
  tools: [
    {
      type: "calculator",
      label: "Calculator",
      description: "Evaluates an arithmetic expression (+ - * / % ^ and parentheses).",
    },
  ],
  createTools(entries) {
    const name = entries[0]?.name ?? "calculator";
    return {
      [name]: tool({
        description: "Evaluates an arithmetic expression such as (2 + 3) * 4 and returns the number.",
        inputSchema: jsonSchema<{ expression: string }>({
          type: "object",
          properties: { expression: { type: "string", description: "Arithmetic with + - * / % ^ and parentheses" } },
          required: ["expression"],
          additionalProperties: false,
        }),
        execute: async ({ expression }) => ({ expression, result: evaluateArithmetic(expression) }),
      }),
    };
  },
};
