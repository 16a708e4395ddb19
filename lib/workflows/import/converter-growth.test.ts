import { describe, expect, it } from "vitest";
import type { WorkflowDocumentInput } from "@/contract";
import { bridgeChain } from "./__fixtures__/bridge-chain";
import { convertFile } from "./import-file";
import { MAX_QUOTED_RESULTS } from "./mcp-bridge-upstream";

/**
 * Issue 30: an MCP-bridge chain of agents each depending on the previous one converted to a
 * document quadratic in the file (each prompt quoted every earlier result: 31 KB became 6.6 MB,
 * in 24 s). Every converter's output, and its time, must grow with its input, not its square.
 */

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

function anythingLlmChain(n: number) {
  return {
    name: "chain",
    steps: [
      { type: "start", config: { variables: [{ name: "topic", value: "rivers" }] } },
      ...Array.from({ length: n }, (_, index) => ({
        type: "llmInstruction",
        config: { instruction: `Improve: \${${index === 0 ? "topic" : `v${index - 1}`}}`, resultVariable: `v${index}` },
      })),
    ],
  };
}

function simChain(n: number) {
  const blocks: Record<string, unknown> = { start: { type: "starter", name: "Start", subBlocks: {} } };
  const edges: Array<{ source: string; target: string }> = [];
  for (let index = 0; index < n; index += 1) {
    blocks[`agent${index}`] = {
      type: "agent",
      name: `Agent ${index}`,
      subBlocks: { userPrompt: { value: index === 0 ? "<start.input>" : `Improve <agent${index - 1}.content>` } },
    };
    edges.push({ source: index === 0 ? "start" : `agent${index - 1}`, target: `agent${index}` });
  }
  return { version: "1", state: { blocks, edges, loops: {}, parallels: {} } };
}

/** Output bytes per input byte at n = 10, 100 and 1,000, and the time of the largest. */
function growth(make: (n: number) => unknown) {
  const ratios: number[] = [];
  let largestMs = 0;
  for (const n of [10, 100, 1000]) {
    const file = make(n);
    const started = performance.now();
    const { document } = convertFile(file, {});
    largestMs = performance.now() - started;
    ratios.push(bytes(document) / bytes(file));
  }
  return { ratios, largestMs };
}

describe("converters grow linearly with their input", () => {
  it.each([
    ["an MCP-bridge chain", bridgeChain],
    ["an AnythingLLM chain", anythingLlmChain],
    ["a Sim chain", simChain],
  ])("%s of 10, 100 and 1,000 agents: output per input byte stays flat, 1,000 convert in under 2 s", (_name, make) => {
    const { ratios, largestMs } = growth(make);
    // Quadratic output multiplies this ratio by about 10 at each step; linear keeps it within a little.
    expect(
      ratios[2]!,
      `output/input at n = 10, 100, 1000: ${ratios.map((ratio) => ratio.toFixed(1)).join(", ")}`,
    ).toBeLessThan(ratios[1]! * 1.3);
    expect(ratios[1]!).toBeLessThan(ratios[0]! * 2);
    expect(largestMs).toBeLessThan(2_000);
  });

  it("quotes a long chain's dependency and its nearest earlier agents in file order, never the whole chain", () => {
    const { document } = convertFile(bridgeChain(30), {});
    const prompt = String(document.blocks!.find((block) => block.name === "a29")!.config!.userPrompt);
    const quoted = [...prompt.matchAll(/Result of (a\d+):/g)].map((match) => match[1]);
    expect(quoted).toEqual(Array.from({ length: MAX_QUOTED_RESULTS }, (_, index) => `a${19 + index}`));
    expect(prompt).toContain('Result of a28: <a28.content ?? "(did not run)">');
  });

  it("stores a long goal once, as a workflow variable every prompt reads, not once per agent", () => {
    const goal = "g".repeat(50_000);
    const { document } = convertFile(bridgeChain(100, goal), {});
    expect(document.variables).toEqual({ root_intent: goal });
    expect(String(document.blocks!.find((block) => block.name === "a5")!.config!.userPrompt)).toContain(
      "Goal: <variable.root_intent>",
    );
    // The goal stands in the variable and (cut to 10,000 characters) the description; before, in all 100 prompts too.
    const shortGoal = convertFile(bridgeChain(100, "g"), {}).document;
    expect(bytes(document) - bytes(shortGoal)).toBeLessThan(2 * goal.length);
  });

  it("makes one Ask block per rule however many triggers fire it, so choices are not copied per trigger", () => {
    const choices = Array.from({ length: 200 }, (_, index) => ({
      [`c${index}`]: { to: "next", value: `Choice ${index}` },
    }));
    const triggers = Array.from({ length: 200 }, (_, index) => `TAG_${index}`);
    const file = {
      flow_id: "asks",
      agents: [
        {
          agent: "first",
          description: "Ask",
          reroute: [{ on: triggers, ask: { question: "Which?", expected_responses: choices } }],
        },
        { agent: "next", description: "Go on" },
      ],
    };
    const { document } = convertFile(file, {});
    expect(document.blocks!.filter((block) => block.type === "ask")).toHaveLength(1);
    expect(bytes(document)).toBeLessThan(20 * bytes(file));
  });
});

describe("no quadratic scan of hostile text", () => {
  const timed = (file: unknown): { ms: number; document: WorkflowDocumentInput } => {
    const started = performance.now();
    const { document } = convertFile(file, {});
    return { ms: performance.now() - started, document };
  };

  it("200 KB of unclosed ${ in an agent's description converts in under a second", () => {
    const { ms } = timed({ flow_id: "dollars", agents: [{ agent: "a", description: "${".repeat(100_000) }] });
    expect(ms).toBeLessThan(1_000);
  });

  it("a `when` of one 200 KB name converts in under a second, one of 20,000 names in under 2 s", () => {
    const longName = timed({
      flow_id: "when",
      agents: [{ agent: "a", description: "x", when: `${"n".repeat(200_000)} and` }],
    });
    expect(longName.ms).toBeLessThan(1_000);
    const manyNames = timed({
      flow_id: "when",
      agents: [
        { agent: "a", description: "x", when: Array.from({ length: 20_000 }, (_, i) => `f${i} > 1`).join(" and ") },
      ],
    });
    expect(manyNames.ms).toBeLessThan(2_000);
  });

  it("a Sim condition of one 200 KB identifier converts in under a second", () => {
    const file = simChain(1);
    (file.state.blocks as Record<string, unknown>).check = {
      type: "condition",
      name: "Check",
      subBlocks: { conditions: { value: [{ id: "if", title: "if", value: `${"a".repeat(200_000)} .includes` }] } },
    };
    expect(timed(file).ms).toBeLessThan(1_000);
  });
});
