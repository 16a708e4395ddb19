import { describe, expect, it } from "vitest";
import type { WorkflowDocument } from "@/contract";
import { validateWorkflow } from "@/executor/dag-builder";
import { lookupBlockType } from "../type-info";
import { blockTypeInfo } from "../type-info";
import { ruleForStep } from "./step-rules";

const parse = (config: Record<string, unknown>) => blockTypeInfo("agent").parseConfig({ userPrompt: "Hi", ...config });
const issuesOf = (config: Record<string, unknown>) => {
  const parsed = parse(config);
  return parsed.ok ? [] : parsed.issues.map((issue) => `${issue.path}: ${issue.message}`);
};

describe("agent loop config, checked at save time", () => {
  it("accepts rules naming the agent's tools, and options its model takes", () => {
    expect(
      issuesOf({
        model: "openai/o3-mini",
        tools: ["calculator", { type: "http_request", name: "fetch" }],
        stepRules: [
          { toStep: 1, activeTools: ["calculator"], toolChoice: { tool: "calculator" } },
          { fromStep: 2, toolChoice: "auto", temperature: 0.2 },
        ],
        pruneToolResults: { afterTokens: 8000 },
        providerOptions: { reasoningEffort: "low" },
      }),
    ).toEqual([]);
  });

  it("refuses a rule naming a tool the agent does not have, naming the tool and where", () => {
    expect(issuesOf({ tools: ["calculator"], stepRules: [{ activeTools: ["calculator", "weather"] }] })).toEqual([
      `stepRules[0].activeTools[1]: "weather" is not one of this agent's tools (its tools are calculator)`,
    ]);
    expect(issuesOf({ stepRules: [{ toolChoice: { tool: "calculator" } }] })).toEqual([
      `stepRules[0].toolChoice.tool: "calculator" is not one of this agent's tools (it has no tools)`,
    ]);
  });

  it("cannot check names a whole MCP server gives only at run time, and lets them through", () => {
    expect(
      issuesOf({ tools: [{ type: "mcp", params: { server: "docs" } }], stepRules: [{ activeTools: ["search_docs"] }] }),
    ).toEqual([]);
  });

  it("refuses a provider option the model does not take, naming the model", () => {
    expect(issuesOf({ model: "openai/gpt-4o-mini", providerOptions: { reasoningEffort: "high" } })).toEqual([
      "providerOptions.reasoningEffort: openai/gpt-4o-mini does not support reasoningEffort (it takes no provider options)",
    ]);
    expect(issuesOf({ providerOptions: { thinkingBudget: 2000 } })).toEqual([
      "providerOptions.thinkingBudget: offline/echo does not support thinkingBudget (it takes no provider options)",
    ]);
    expect(issuesOf({ model: "anthropic/claude-sonnet-4-5", providerOptions: { reasoningEffort: "high" } })).toEqual([
      "providerOptions.reasoningEffort: anthropic/claude-sonnet-4-5 does not support reasoningEffort (it accepts thinkingBudget)",
    ]);
    expect(issuesOf({ model: "anthropic/claude-sonnet-4-5", providerOptions: { thinkingBudget: 100 } })).toEqual([
      "providerOptions.thinkingBudget: anthropic/claude-sonnet-4-5 takes thinkingBudget from 1024 to 64000; got 100",
    ]);
    expect(issuesOf({ model: "openai/o3-mini", providerOptions: { reasoningEffort: "extreme" } })).toEqual([
      'providerOptions.reasoningEffort: openai/o3-mini takes reasoningEffort low, medium, high; got "extreme"',
    ]);
    expect(issuesOf({ model: "openai/o3-mini", providerOptions: { temperatureBoost: 1 } })[0]).toMatch(
      /temperatureBoost/,
    );
  });

  it("refuses a step range that ends before it starts", () => {
    expect(issuesOf({ stepRules: [{ fromStep: 3, toStep: 2 }] })).toEqual([
      "stepRules[0].toStep: toStep must not be before fromStep",
    ]);
  });

  it("reports them on the workflow, at the block's field", () => {
    const document = {
      schemaVersion: 1,
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: {},
        },
        {
          id: "agent",
          type: "agent",
          name: "Agent",
          position: { x: 200, y: 0 },
          parentId: null,
          enabled: true,
          config: { model: "openai/gpt-4o", userPrompt: "Hi", providerOptions: { reasoningEffort: "low" } },
        },
      ],
      edges: [{ id: "e1", source: "start", sourceHandle: "out", target: "agent" }],
      variables: {},
    } as unknown as WorkflowDocument;
    const issues = validateWorkflow(document, lookupBlockType);
    expect(issues).toContainEqual({
      path: "blocks[1].config.providerOptions.reasoningEffort",
      message: expect.stringContaining("openai/gpt-4o does not support reasoningEffort"),
    });
  });
});

describe("the rule for a step", () => {
  it("is the first whose range holds it; none past every range", () => {
    const rules = [
      { fromStep: 1, toStep: 1, toolChoice: "required" as const },
      { fromStep: 1, toStep: 3, temperature: 0.5 },
    ];
    expect(ruleForStep(rules, 1)).toBe(rules[0]);
    expect(ruleForStep(rules, 3)).toBe(rules[1]);
    expect(ruleForStep(rules, 4)).toBeUndefined();
  });
});
