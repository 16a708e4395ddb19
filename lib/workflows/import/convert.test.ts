import { describe, expect, it } from "vitest";
import { fixture } from "./__fixtures__/import-run-kit";
import { detectFormat } from "./detect-format";
import { importWorkflowFile } from "./import-file";

/** The converters alone: every seed example becomes a document Trellis saves with no issues, and what does not map is listed. */

const convert = (file: unknown, extra: Record<string, unknown> = {}) =>
  importWorkflowFile({ file, ...extra }, new Set(["bridge"]));

const EXAMPLES = [
  "anythingllm/data-processing.json",
  "anythingllm/search-and-summarize.json",
  "anythingllm/direct-output.json",
  "mcp-bridge/customer-support.json",
  "mcp-bridge/data-analysis.json",
  "mcp-bridge/blog-post-generation.json",
  "mcp-bridge/code-review.json",
  "mcp-bridge/multi-source-analysis.json",
  "mcp-bridge/iterative-improvement.json",
  "mcp-bridge/deployment-plan.json",
  "mcp-bridge/integration-setup.json",
  "sim/support-routing.json",
  "sim/blurb-review.json",
];

describe("the seed examples", () => {
  it.each(EXAMPLES)("%s converts to a workflow with no issues, every block placed apart", (name) => {
    const { document, issues } = convert(fixture(name));
    expect(issues).toEqual([]);
    const places = document.blocks
      .filter((block) => !block.parentId)
      .map((block) => `${block.position.x},${block.position.y}`);
    expect(new Set(places).size).toBe(places.length);
  });

  it("detects each format by its shape", () => {
    expect(detectFormat(fixture("anythingllm/data-processing.json"))).toBe("anythingllm-flow");
    expect(detectFormat({ name: "Nested", config: { steps: [{ type: "start" }] } })).toBe("anythingllm-flow");
    expect(detectFormat(fixture("mcp-bridge/code-review.json"))).toBe("mcp-bridge-workflow");
    expect(detectFormat(fixture("sim/support-routing.json"))).toBe("sim-export");
    expect(detectFormat((fixture("sim/support-routing.json") as { state: unknown }).state)).toBe("sim-export");
    expect(detectFormat({ name: "Doc", blocks: [{ type: "start" }], edges: [] })).toBe("trellis");
    expect(detectFormat({ nodes: [] })).toBeNull();
  });
});

describe("AnythingLLM flows", () => {
  it("rewrites ${var.path} to the block that stored the variable, and lists a step type it cannot import", () => {
    const file = {
      name: "Mixed",
      steps: [
        { type: "start", config: { variables: [{ name: "city", value: "Paris" }] } },
        {
          type: "apiCall",
          config: {
            url: "https://weather.example.com/${city}",
            method: "POST",
            bodyType: "json",
            body: '{"city": "${city}"}',
            responseVariable: "weather",
          },
        },
        { type: "code", config: { code: "return 1", resultVariable: "computed" } },
        {
          type: "llmInstruction",
          config: { instruction: "Forecast: ${weather.data.today[0]} ${computed}", resultVariable: "forecast" },
        },
      ],
    };
    const { document, report } = convert(file);
    const api = document.blocks.find((block) => block.type === "api")!;
    expect(api.config).toMatchObject({
      url: "https://weather.example.com/<start.city>",
      method: "POST",
      body: { city: "<start.city>" },
    });
    const agent = document.blocks.find((block) => block.type === "agent")!;
    expect(agent.config.userPrompt).toBe("Forecast: <API weather.data.data.today[0]> ${computed}");
    expect(report.notMapped).toEqual([
      { what: "steps[2] (code)", why: expect.stringContaining("Trellis has no importer for AnythingLLM 'code' steps") },
      { what: "${computed} in steps[3].config", why: expect.stringContaining("no earlier step sets this variable") },
    ]);
  });
});

describe("MCP-bridge workflows", () => {
  it("puts a Condition block in front of an agent with `when`, and `loop: true` in a capped while loop repeating while it holds", () => {
    const { document, report } = convert(fixture("mcp-bridge/iterative-improvement.json"));
    const loop = document.blocks.find((block) => block.type === "loop")!;
    expect(loop.config).toEqual({
      kind: "while",
      condition: "<loop.index> == 0 || (<start.quality_score> < 90)",
      maxIterations: 100,
    });
    const gate = document.blocks.find((block) => block.type === "condition")!;
    expect(gate).toMatchObject({ name: "When improver", parentId: loop.id });
    expect(document.edges).toContainEqual(
      expect.objectContaining({ source: gate.id, target: "improver", sourceHandle: "branch:run" }),
    );
    expect(document.edges).toContainEqual(
      expect.objectContaining({ source: "analyzer", target: gate.id, sourceHandle: "out" }),
    );
    const start = document.blocks.find((block) => block.type === "start")!;
    expect(start.config.inputs).toContainEqual({
      name: "quality_score",
      type: "number",
      description: "From the workflow's initial context",
    });
    expect(report.notMapped).toEqual([]);
  });

  it("turns tag triggers into edge conditions on the agent's answer and tells the agent the tags", () => {
    const { document } = convert(fixture("mcp-bridge/deployment-plan.json"));
    const findPlan = document.blocks.find((block) => block.id === "find_plan")!;
    expect(findPlan.config.systemPrompt).toContain("<reroute>PLAN_FOUND</reroute>, <reroute>NO_PLANS_FOUND</reroute>");
    expect(findPlan.config.systemPrompt).toContain("Finish with the question for the user: Present the found plan");
    expect(document.edges.filter((edge) => edge.source === "find_plan").map((edge) => edge.condition)).toEqual([
      'contains(output.content, "<reroute>PLAN_FOUND</reroute>")',
      'contains(output.content, "<reroute>NO_PLANS_FOUND</reroute>")',
    ]);
    const stop = document.blocks.find((block) => block.type === "response")!;
    expect(stop).toMatchObject({ name: "Stop after cancel_workflow", config: { data: "<cancel_workflow.content>" } });
  });

  it("maps returns to a response format whose fields later references read", () => {
    const { document } = convert(fixture("mcp-bridge/integration-setup.json"));
    const select = document.blocks.find((block) => block.id === "select_tools")!;
    expect(select.config.responseFormat).toEqual({
      type: "object",
      properties: { selected_tools: { description: "The selected_tools found" } },
      required: ["selected_tools"],
    });
    expect(select.config.tools).toEqual([
      { type: "mcp", params: { server: "bridge", tools: ["select_tools"] }, routeOnOutcome: ["select_tools"] },
    ]);
    const plan = document.blocks.find((block) => block.id === "create_plan")!;
    expect(plan.config.systemPrompt).toBe("Plan the setup of the selected integrations: <select_tools.selected_tools>");
    const ask = document.blocks.find((block) => block.type === "ask")!;
    expect(ask.config).toMatchObject({
      allowText: true,
      choices: [
        { id: "proceed", label: "Proceed with these integrations" },
        { id: "adjust", label: "Adjust the selection" },
      ],
    });
  });

  it("lists a `when` Trellis cannot express and runs the agent unconditionally", () => {
    const file = {
      flow_id: "f",
      agents: [
        { agent: "a", description: "A" },
        { agent: "b", description: "B", depends_on: ["a"], when: "score @ 3" },
      ],
    };
    const { document, report } = convert(file);
    expect(document.blocks.some((block) => block.type === "condition")).toBe(false);
    expect(report.notMapped).toEqual([
      { what: "agents[1].when (score @ 3)", why: expect.stringContaining("the agent runs unconditionally") },
    ]);
  });
});

describe("Sim exports", () => {
  const sub = (value: unknown) => ({ value });
  const simFile = (blocks: Record<string, unknown>, edges: unknown[] = []) => ({
    version: "1.0",
    state: { blocks, edges, loops: {}, parallels: {} },
  });

  it("lists what a block carries that Trellis has no place for: agent tools, Sim's knowledge bases, a response status", () => {
    const file = simFile(
      {
        s: { type: "starter", name: "Start", subBlocks: {} },
        a: {
          type: "agent",
          name: "Agent",
          subBlocks: {
            userPrompt: sub("<start.input>"),
            model: sub("gemini-2.5-flash"),
            tools: sub([{ type: "exa", title: "Exa Search" }]),
          },
        },
        k: {
          type: "knowledge",
          name: "Docs",
          subBlocks: {
            operation: sub("search"),
            knowledgeBaseId: sub("kb-policies"),
            query: sub("<agent.content>"),
            topK: sub("3"),
          },
        },
        r: { type: "response", name: "Answer", subBlocks: { data: sub('{"hits": <docs.results>}'), status: sub(201) } },
      },
      [
        { source: "s", target: "a", sourceHandle: "source" },
        { source: "a", target: "k", sourceHandle: "source" },
        { source: "k", target: "r", sourceHandle: "source" },
      ],
    );
    const { document, report, issues } = convert(file);
    expect(report.notMapped.map((item) => item.what)).toEqual([
      "state.blocks.a.subBlocks.tools (Exa Search)",
      "state.blocks.k.subBlocks.knowledgeBaseId (kb-policies)",
      "state.blocks.r.subBlocks.status",
    ]);
    expect(document.blocks.find((block) => block.id === "a")!.config).toMatchObject({
      model: "google/gemini-2.5-flash",
      userPrompt: "<start.input>",
    });
    expect(document.blocks.find((block) => block.id === "k")!.config).toEqual({
      knowledgeBaseIds: [],
      query: "<agent.content>",
      topK: 3,
    });
    expect(document.blocks.find((block) => block.id === "r")!.config).toEqual({ data: { hits: "<docs.results>" } });
    // `<start.input>`, Sim's starter output, became a start input.
    expect(document.blocks.find((block) => block.id === "s")!.config).toEqual({
      inputs: [{ name: "input", type: "string" }],
    });
    // The knowledge base to choose is the one thing left to finish.
    expect(issues.map((issue) => issue.path)).toEqual(["blocks[2].config.knowledgeBaseIds"]);
  });

  it("refuses an export without a start block, naming where", () => {
    expect(() => convert(simFile({ a: { type: "agent", name: "Agent", subBlocks: {} } }))).toThrow(
      expect.objectContaining({
        code: "invalid_workflow",
        details: [{ path: "file.state.blocks", message: expect.stringContaining("has no start block") }],
      }),
    );
  });
});
