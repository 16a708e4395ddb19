import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { agentWorkflow } from "./__fixtures__/agent-workflow";

/** `directOutput` on workflow tools, against the real run service and the test LLM server. */
let kit: RunTestKit;
let ws: string;
beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
});
afterAll(() => kit.close());
beforeEach(() => {
  kit.server.requests.length = 0;
});
afterEach(() => {
  // Each scenario uses what it scripted, no more and no less.
  expect(kit.server.pending()).toBe(0);
});

async function createWorkflow(document: unknown) {
  return kit.database.repositories.workflows.create(ws, document as never);
}

async function runToEnd(workflowId: string, input: Record<string, unknown>) {
  const live = await kit.runtime.runs.start(ws, workflowId, input);
  await live.done;
  return kit.database.repositories.runs.getWithSpans(ws, live.runId);
}

async function skillAndCaller(tools: (skillId: string) => unknown[]) {
  const skill = await createWorkflow(
    agentWorkflow({
      name: "Refund policy",
      inputs: [{ name: "question", type: "string" }],
      userPrompt: "Policy answer for: <start.question>",
    }),
  );
  const caller = await createWorkflow(
    agentWorkflow({
      name: "Concierge",
      inputs: [{ name: "message", type: "string" }],
      userPrompt: "<start.message>",
      tools: tools(skill.id),
    }),
  );
  return { skill, caller };
}

const agentSpan = (run: Awaited<ReturnType<typeof runToEnd>>) =>
  run.spans.find((span) => span.kind === "block" && span.blockId === "agent")!;

describe("directOutput on workflow tools", () => {
  it("ends the agent's loop with the called workflow's output as its answer: no further model call", async () => {
    const { skill, caller } = await skillAndCaller((id) => [
      { type: "workflow", params: { workflowId: id }, directOutput: true },
    ]);
    kit.server.enqueue(
      {
        kind: "tool-calls",
        text: "Let me check.",
        calls: [{ name: "refund_policy", arguments: { question: "Can I return shoes?" } }],
        usage: { prompt: 50, completion: 10 },
      },
      { kind: "text", text: "Yes, within 30 days.", usage: { prompt: 20, completion: 6 } },
    );

    const run = await runToEnd(caller.id, { message: "Can I return my shoes?" });

    expect(run.status).toBe("succeeded");
    // The skill's output `{ answer }` read as text, word for word.
    expect(run.output).toEqual({ answer: "Yes, within 30 days." });
    // The concierge's one call and the skill's: the concierge is not asked again to reword the answer.
    expect(kit.server.requests).toHaveLength(2);
    const [skillRun] = await kit.database.repositories.runs.listByWorkflow(ws, skill.id);
    const agent = agentSpan(run);
    expect(agent.output).toMatchObject({ content: "Yes, within 30 days.", toolCalls: { count: 1 } });
    expect(
      (agent.output as { toolCalls: { list: Array<{ result: unknown }> } }).toolCalls.list[0]!.result,
    ).toMatchObject({
      runId: skillRun!.id,
      workflowId: skill.id,
    });
    // The answer streams like a model's, after what the concierge said before calling the skill.
    const deltas = (await kit.database.repositories.runEvents.listAfter(run.id, 0))
      .map((item) => item.event)
      .flatMap((event) => (event.type === "block.delta" && event.blockId === "agent" ? [event.text] : []));
    expect(deltas.join("")).toBe("Let me check.\n\nYes, within 30 days.");
    // The concierge's one call and the skill's run, counted once.
    expect(agent.usage?.tokens.total).toBe(60 + 26);
    expect(run.tokens.total).toBe(60 + 26);
  });

  it("lets the model go on when the direct-output workflow fails: the failure is a tool error, not an answer", async () => {
    const failing = await createWorkflow(
      agentWorkflow({
        name: "Needs order",
        inputs: [{ name: "orderId", type: "number" }],
        userPrompt: "Order <start.orderId>",
      }),
    );
    const caller = await createWorkflow(
      agentWorkflow({
        name: "Concierge two",
        inputs: [{ name: "message", type: "string" }],
        userPrompt: "<start.message>",
        tools: [{ type: "workflow", params: { workflowId: failing.id }, directOutput: true }],
      }),
    );
    // The child's own model call fails (arguments failing the tool's schema would not run it at all).
    kit.server.enqueue(
      { kind: "tool-calls", calls: [{ name: "needs_order", arguments: { orderId: 7 } }] },
      { kind: "error", status: 400, message: "the order service is down" },
      { kind: "text", text: "I could not look that order up." },
    );

    const run = await runToEnd(caller.id, { message: "Where is my order?" });

    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ answer: "I could not look that order up." });
    expect(kit.server.requests).toHaveLength(3);
    expect(kit.server.requests[2]!.parsed.allText).toContain("the order service is down");
  });

  it("without directOutput the model still answers in its own words after the call", async () => {
    const { caller } = await skillAndCaller((id) => [{ type: "workflow", params: { workflowId: id } }]);
    kit.server.enqueue(
      { kind: "tool-calls", calls: [{ name: "refund_policy", arguments: { question: "Shoes?" } }] },
      { kind: "text", text: "Yes, within 30 days." },
      { kind: "text", text: "Good news: you have 30 days." },
    );

    const run = await runToEnd(caller.id, { message: "Shoes?" });

    expect(run.output).toEqual({ answer: "Good news: you have 30 days." });
    expect(kit.server.requests).toHaveLength(3);
  });

  it("refuses directOutput on a tool that is not a workflow, before any model call", async () => {
    const caller = await createWorkflow(
      agentWorkflow({
        name: "Adder",
        inputs: [],
        userPrompt: "1+1",
        tools: [{ type: "calculator", directOutput: true }],
      }),
    );

    const run = await runToEnd(caller.id, {});

    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ code: "invalid_tool" });
    expect(run.error?.message).toContain(
      "tools[0] (calculator) cannot answer for the agent: directOutput is for workflow tools",
    );
    expect(kit.server.requests).toHaveLength(0);
  });
});
