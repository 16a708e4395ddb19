import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowEstimate } from "@/contract";
import { startRunTestKit, supportRoutingDocument, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { estimateOver, runToEnd } from "./__fixtures__/estimate-kit";

/**
 * The estimate against what runs really cost: real runs through the real runtime and AI SDK
 * clients against the test LLM server, whose usage is the o200k_base count of what it received
 * and what it answered. After three warm-up runs, the expected figure is within 30 % of the next
 * run's cost, and low <= actual <= high.
 */

const MODEL = "openai/gpt-4o-mini";
let kit: RunTestKit;
let estimates: ReturnType<typeof estimateOver>;
let workspaceId: string;

beforeAll(async () => {
  kit = await startRunTestKit();
  estimates = estimateOver(kit);
  workspaceId = await kit.database.createWorkspace();
});
afterAll(() => kit.close());

function expectWithin(estimate: WorkflowEstimate, actual: number) {
  expect(actual).toBeGreaterThan(0);
  expect(estimate.total.low).toBeLessThanOrEqual(actual);
  expect(estimate.total.high).toBeGreaterThanOrEqual(actual);
  expect(Math.abs(estimate.total.expected - actual) / actual).toBeLessThanOrEqual(0.3);
}

async function create(document: unknown): Promise<string> {
  return (await kit.database.repositories.workflows.create(workspaceId, document as never)).id;
}

const block = (id: string, type: string, config: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  type,
  name: id[0]!.toUpperCase() + id.slice(1),
  position: { x: 0, y: 0 },
  parentId: null,
  enabled: true,
  config,
  ...extra,
});

describe("the estimate of the seed workflows, against their real cost", () => {
  it("support routing: within 30 % after three warm-up runs, low <= actual <= high, and no model is called to estimate", async () => {
    const workflowId = await create(supportRoutingDocument(MODEL));
    // The test server routes to the candidate the message names and echoes the agents' prompts.
    for (const message of [
      "I need support: my parcel arrived broken",
      "I need support: the app logs me out",
      "Which sales plan fits a team of five?",
    ]) {
      await runToEnd(kit, workspaceId, workflowId, { message });
    }
    const input = { message: "I need support: my refund has not arrived yet" };
    const before = kit.server.requests.length;
    const estimate = await estimates.estimate(workspaceId, workflowId, input);
    expect(kit.server.requests.length).toBe(before);
    expect(estimate).toMatchObject({ estimate: true, historyRuns: 3, unpriced: [] });
    expect(estimate.blocks.map((entry) => entry.blockId).sort()).toEqual(["router", "sales", "support"]);
    // The router runs every time; each agent only on its branch, weighted by how often past runs took it.
    const executions = Object.fromEntries(estimate.blocks.map((entry) => [entry.blockId, entry.executions]));
    expect(executions.router).toEqual({ low: 1, expected: 1, high: 1 });
    expect(executions.support?.low).toBe(0);
    expect(executions.support?.expected).toBeCloseTo(2 / 3);
    expect(executions.sales?.expected).toBeCloseTo(1 / 3);

    const run = await runToEnd(kit, workspaceId, workflowId, input);
    expectWithin(estimate, run.cost!.total);
  });

  it("the seed agent with tools: a tool loop within 30 %, low <= actual <= high", async () => {
    const workflowId = await create({
      name: "Refund helper",
      description: "",
      variables: {},
      blocks: [
        block("start", "start", { inputs: [{ name: "question", type: "string" }] }),
        block("agent", "agent", {
          model: MODEL,
          systemPrompt:
            "You are the support agent. Work refunds out with the calculator before answering: 90 % of the order total.",
          userPrompt: "<start.question>",
          tools: [{ type: "calculator" }],
        }),
      ],
      edges: [{ id: "e1", source: "start", target: "agent" }],
    });
    const oneRun = (question: string) => {
      // Known usage: the server counts what it receives and answers (no usage is scripted).
      kit.server.enqueue(
        { kind: "tool-calls", calls: [{ name: "calculator", arguments: { expression: "129.5 * 0.9" } }] },
        {
          kind: "text",
          text: "Your refund is $116.55: 90 % of the order total of $129.50, back on your card within five days.",
        },
      );
      return runToEnd(kit, workspaceId, workflowId, { question });
    };
    for (const question of [
      "What refund do I get for order A-17?",
      "How much comes back for order B-2?",
      "Refund for order C-9, please",
    ])
      await oneRun(question);
    const input = { question: "What refund do I get for order D-4?" };
    const estimate = await estimates.estimate(workspaceId, workflowId, input);
    expect(estimate.blocks[0]).toMatchObject({ blockId: "agent", basis: "history" });
    const run = await oneRun(input.question);
    expectWithin(estimate, run.cost!.total);
  });

  it("a loop of five agent calls: five times the agent, within 30 %, low <= actual <= high", async () => {
    const workflowId = await create({
      name: "Five drafts",
      description: "",
      variables: {},
      blocks: [
        block("start", "start", { inputs: [{ name: "topic", type: "string" }] }),
        block("drafts", "loop", { kind: "for", count: 5 }),
        block(
          "writer",
          "agent",
          {
            model: MODEL,
            systemPrompt: "Write one short tagline.",
            userPrompt: "Tagline <loop.index> about <start.topic>",
          },
          { parentId: "drafts" },
        ),
      ],
      edges: [
        { id: "e1", source: "start", target: "drafts" },
        { id: "e2", source: "drafts", target: "writer", sourceHandle: "body" },
      ],
    });
    for (const topic of ["garden tools", "rain boots", "coffee beans"])
      await runToEnd(kit, workspaceId, workflowId, { topic });
    const input = { topic: "bicycle lights" };
    const estimate = await estimates.estimate(workspaceId, workflowId, input);
    expect(estimate.blocks[0]?.executions).toEqual({ low: 5, expected: 5, high: 5 });
    const run = await runToEnd(kit, workspaceId, workflowId, input);
    expect(run.spans.filter((span) => span.kind === "block" && span.blockId === "writer")).toHaveLength(5);
    expectWithin(estimate, run.cost!.total);
  });
});
