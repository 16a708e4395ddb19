import { describe, expect, it } from "vitest";
import type { PastRun } from "@/lib/db";
import type { ModelPricing } from "@/providers";
import { estimateWorkflow, type PriceLookup } from "./estimate-workflow";

/** One dollar per million prompt tokens, two per million completion tokens: figures easy to check. */
const PRICED: ModelPricing = { prices: { input: 1, output: 2 }, tiers: [], source: "operator-override" };
const priceOf: PriceLookup = (modelId) => (modelId === "openai/priced" ? PRICED : null);

const block = (id: string, type: string, config: Record<string, unknown>, parentId: string | null = null) => ({
  id,
  type,
  name: id,
  position: { x: 0, y: 0 },
  parentId,
  enabled: true,
  config,
});
const agent = (id: string, config: Record<string, unknown> = {}, parentId: string | null = null) =>
  block(id, "agent", { model: "openai/priced", userPrompt: "Answer <start.message>", ...config }, parentId);
const start = block("start", "start", {
  inputs: [
    { name: "message", type: "string" },
    { name: "n", type: "number", default: 2 },
  ],
});
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

function estimate(
  blocks: unknown[],
  edges: unknown[],
  options: { input?: Record<string, unknown>; history?: PastRun[] } = {},
) {
  return estimateWorkflow({
    document: { blocks: blocks as never, edges: edges as never, variables: {} },
    input: { message: "hello", n: 2, ...options.input },
    history: options.history ?? [],
    priceOf,
  });
}

const routed = {
  blocks: [
    start,
    block("router", "router", { model: "openai/priced", prompt: "Route <start.message>" }),
    agent("cheap", { maxTokens: 10 }),
    agent("dear", { maxTokens: 1000 }),
  ],
  edges: [edge("start", "router"), edge("router", "cheap"), edge("router", "dear")],
};

const pastRun = (index: number, ran: string[]): PastRun => ({
  runId: `run-${index}`,
  input: { message: "hello", n: 2 },
  executions: ran.map((blockId) => ({ blockId, prompt: 50, completion: 20, modelCalls: 1 })),
});

describe("the estimate's graph walk", () => {
  it("a router: the worst case is its dearest branch, not both, and a branch may be skipped (0 in low)", () => {
    const figures = estimate(routed.blocks, routed.edges);
    const of = (id: string) => figures.blocks.find((entry) => entry.blockId === id)!;
    expect(of("cheap").executions.low).toBe(0);
    expect(of("router").executions.low).toBe(1);
    expect(figures.total.high).toBeCloseTo(of("router").cost!.high + of("dear").cost!.high, 10);
    expect(figures.total.high).toBeLessThan(of("router").cost!.high + of("dear").cost!.high + of("cheap").cost!.high);
    expect(figures.total.low).toBeCloseTo(of("router").cost!.low, 10);
  });

  it("a router with no past runs weighs its branches alike; with past runs, by how often each was taken", () => {
    const fresh = estimate(routed.blocks, routed.edges);
    expect(fresh.blocks.find((entry) => entry.blockId === "dear")!.executions.expected).toBe(0.5);
    const history = [
      pastRun(1, ["router", "dear"]),
      pastRun(2, ["router", "dear"]),
      pastRun(3, ["router", "dear"]),
      pastRun(4, ["router", "cheap"]),
    ];
    const learnt = estimate(routed.blocks, routed.edges, { history });
    const of = (id: string) => learnt.blocks.find((entry) => entry.blockId === id)!;
    expect(of("dear").executions.expected).toBe(0.75);
    expect(of("cheap").executions.expected).toBe(0.25);
    expect(of("dear").basis).toBe("history");
    // Past runs said 20 completion tokens per execution: the expected tokens are 0.75 of that.
    expect(of("dear").tokens.completion).toBe(15);
  });

  it("a condition: a block on one branch counts 0 in low and the worst case takes the dearer branch; a join after both counts in full", () => {
    const blocks = [
      start,
      block("check", "condition", { branches: [{ id: "long", expression: "true" }, { id: "else" }] }),
      agent("short", { maxTokens: 10 }),
      agent("essay", { maxTokens: 2000 }),
      agent("after", { maxTokens: 10, userPrompt: "Sum up" }),
    ];
    const edges = [
      edge("start", "check"),
      edge("check", "essay", "branch:long"),
      edge("check", "short", "branch:else"),
      edge("essay", "after"),
      edge("short", "after"),
    ];
    const figures = estimate(blocks, edges);
    const of = (id: string) => figures.blocks.find((entry) => entry.blockId === id)!;
    expect(of("short").executions).toEqual({ low: 0, expected: 0.5, high: 1 });
    expect(of("after").executions.high).toBe(1);
    expect(figures.total.high).toBeCloseTo(of("essay").cost!.high + of("after").cost!.high, 10);
  });

  it("a loop multiplies its body by its count, read from the input when the count is a reference", () => {
    const blocks = [
      start,
      block("repeat", "loop", { kind: "for", count: "<start.n>" }),
      agent("inner", { maxTokens: 50 }, "repeat"),
    ];
    const edges = [edge("start", "repeat"), edge("repeat", "inner", "body")];
    const twice = estimate(blocks, edges, { input: { n: 2 } });
    const five = estimate(blocks, edges, { input: { n: 5 } });
    expect(twice.blocks[0]!.executions).toEqual({ low: 2, expected: 2, high: 2 });
    expect(five.blocks[0]!.executions).toEqual({ low: 5, expected: 5, high: 5 });
    expect(five.total.expected).toBeCloseTo((twice.total.expected / 2) * 5, 10);
  });

  it("a parallel over a collection unknown before the run: none in low, its allowance in high", () => {
    const blocks = [
      start,
      agent("list"),
      block("fan", "parallel", { kind: "collection", collection: "<list.content>" }),
      agent("each", {}, "fan"),
    ];
    const edges = [edge("start", "list"), edge("list", "fan"), edge("fan", "each", "body")];
    const figures = estimate(blocks, edges);
    expect(figures.blocks.find((entry) => entry.blockId === "each")!.executions).toMatchObject({ low: 0, high: 100 });
  });

  it("lists a block whose model has no price, and leaves it out of the total instead of counting 0", () => {
    const blocks = [start, agent("known"), agent("unknown", { model: "ollama/llama3.2" })];
    const figures = estimate(blocks, [edge("start", "known"), edge("known", "unknown")]);
    expect(figures.unpriced).toEqual(["unknown"]);
    expect(figures.blocks.find((entry) => entry.blockId === "unknown")!.cost).toBeNull();
    expect(figures.total.expected).toBe(figures.blocks.find((entry) => entry.blockId === "known")!.cost!.expected);
  });

  it("a longer input makes a larger prompt; an upstream output and a secret are unknown, and low <= expected <= high", () => {
    const blocks = [
      start,
      agent("first"),
      agent("second", { userPrompt: "Check <first.content> with {{API_TOKEN}} for <start.message>" }),
    ];
    const edges = [edge("start", "first"), edge("first", "second")];
    const short = estimate(blocks, edges);
    const long = estimate(blocks, edges, { input: { message: "a much longer message ".repeat(40) } });
    const second = (figures: typeof short) => figures.blocks.find((entry) => entry.blockId === "second")!;
    expect(second(long).tokens.prompt).toBeGreaterThan(second(short).tokens.prompt + 100);
    // Two unknown references: the expected prompt carries an allowance for each.
    expect(second(short).tokens.prompt).toBeGreaterThan(2 * 256);
    for (const entry of short.blocks) {
      expect(entry.cost!.low).toBeLessThanOrEqual(entry.cost!.expected);
      expect(entry.cost!.expected).toBeLessThanOrEqual(entry.cost!.high);
    }
  });

  it("a tool loop's worst case grows with its iterations, bounded by the output cap", () => {
    const single = estimate([start, agent("solo", { maxTokens: 100 })], [edge("start", "solo")]);
    const tools = estimate(
      [start, agent("solo", { maxTokens: 100, tools: [{ type: "calculator" }], maxIterations: 4 })],
      [edge("start", "solo")],
    );
    expect(tools.total.high).toBeGreaterThan(4 * single.total.high);
    expect(tools.total.expected).toBe(single.total.expected);
  });
});
