import { describe, expect, it } from "vitest";
import type { WorkflowBlock } from "@/contract";
import { agentDefinition } from "./definition";
import { routedToolNames, takenToolHandles, toolOutcomesByName } from "./tool-outcomes";
import { reportedError } from "./tracked-tools";

const agent = (tools: unknown[]): WorkflowBlock => ({
  id: "lint",
  type: "agent",
  name: "Linter",
  position: { x: 0, y: 0 },
  parentId: null,
  enabled: true,
  config: { model: "offline/echo", userPrompt: "lint", tools },
});

/** An agent output after these calls, its `toolOutcomes` made as the handler makes them. */
const calls = (...list: Array<{ name: string; error?: { code: string; message: string } }>) => ({
  toolCalls: { list, count: list.length },
  toolOutcomes: toolOutcomesByName(["calculator", "check", "web_page"], list),
});

describe("agent tool-outcome handles", () => {
  it("offers a success and an error handle per tool an entry routes on, after out and error", () => {
    const block = agent([
      "calculator",
      { type: "run_function", name: "run_linter", routeOnOutcome: true, params: { code: "return 1" } },
      { type: "mcp", routeOnOutcome: true, params: { server: "ci", tools: ["security_scanner"] } },
      { type: "workflow", routeOnOutcome: ["fix_lint"], params: { workflowId: "w" } },
      { type: "calculator", routeOnOutcome: false },
    ]);
    expect(agentDefinition.sourceHandles(block).map((handle) => handle.id)).toEqual([
      "out",
      "error",
      "tool:run_linter:success",
      "tool:run_linter:error",
      "tool:security_scanner:success",
      "tool:security_scanner:error",
      "tool:fix_lint:success",
      "tool:fix_lint:error",
    ]);
    expect(agentDefinition.sourceHandles(block)[3]).toMatchObject({ label: "run_linter ✗", variant: "error" });
  });

  it("leaves by out and the outcome of the last call of each routed tool", () => {
    const block = agent([
      { type: "calculator", routeOnOutcome: true },
      { type: "run_function", name: "check", routeOnOutcome: true, params: { code: "1" } },
      "web_page",
    ]);
    const failedThenFixed = calls(
      { name: "calculator", error: { code: "sandbox_error", message: "bad" } },
      { name: "web_page" },
      { name: "calculator" },
    );
    expect(takenToolHandles(block, failedThenFixed)).toEqual(["out", "tool:calculator:success"]);
    const fixedThenFailed = calls(
      { name: "calculator" },
      { name: "calculator", error: { code: "x", message: "bad" } },
      { name: "check" },
    );
    expect(takenToolHandles(block, fixedThenFailed)).toEqual(["out", "tool:calculator:error", "tool:check:success"]);
    expect(takenToolHandles(block, calls())).toEqual(["out"]);
    // Routing reads the output's toolOutcomes, the one definition of "last call", not the list.
    expect(
      takenToolHandles(block, { toolCalls: failedThenFixed.toolCalls, toolOutcomes: { calculator: "error" } }),
    ).toEqual(["out", "tool:calculator:error"]);
  });

  it("refuses at save an entry whose tool names cannot be known before it runs", () => {
    const parsed = agentDefinition.configSchema.safeParse(
      agent([
        { type: "workflow", routeOnOutcome: true, params: { workflowId: "w" } },
        { type: "calculator", routeOnOutcome: "yes" },
      ]).config,
    );
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(issues).toEqual([
      'tools.0.routeOnOutcome: this entry\'s tool names are only known when it runs: give it a "name" (or params.tools) or list them, as routeOnOutcome: ["tool_name"]',
      "tools.1.routeOnOutcome: must be true or a list of tool names",
    ]);
    expect(routedToolNames([{ type: "mcp", routeOnOutcome: true, params: { server: "ci" } }])).toEqual([]);
  });

  it("reports per tool the outcome of its last call, null for a tool not called", () => {
    expect(toolOutcomesByName(["run_linter", "fix_lint"], [{ name: "run_linter", error: { code: "x" } }])).toEqual({
      run_linter: "error",
      fix_lint: null,
    });
    expect(toolOutcomesByName(["run_linter"], [{ name: "run_linter", error: {} }, { name: "run_linter" }])).toEqual({
      run_linter: "success",
    });
  });

  it("counts an MCP answer with isError as a failed call, its text as the message", () => {
    expect(reportedError({ isError: true, content: [{ type: "text", text: "lint: 3 problems" }] })).toEqual({
      code: "tool_error",
      message: "lint: 3 problems",
    });
    expect(reportedError({ isError: true, content: [] })).toEqual({
      code: "tool_error",
      message: "The tool reported an error",
    });
    expect(reportedError({ isError: false, content: [{ type: "text", text: "ok" }] })).toBeNull();
    expect(reportedError({ result: 42 })).toBeNull();
  });
});
