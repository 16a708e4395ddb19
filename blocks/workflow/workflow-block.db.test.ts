import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { agentWorkflow } from "@/tools/workflow/__fixtures__/agent-workflow";

/** Engine scenarios for the Workflow block, against the real run service, storage and the test LLM server. */
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

/** start(text) -> Workflow block `name` calling `workflowId` -> response `{ answer: <name.output...> }`. */
function callerWorkflow(
  name: string,
  workflowId: string,
  options: { target?: string; inputs?: Record<string, unknown>; answer?: string } = {},
) {
  return {
    name,
    description: "",
    variables: {},
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        config: { inputs: [{ name: "text", type: "string" }] },
      },
      {
        id: "call",
        type: "workflow",
        name: "Child",
        position: { x: 240, y: 0 },
        config: {
          workflowId,
          ...(options.target ? { target: options.target } : {}),
          inputs: options.inputs ?? { text: "<start.text>" },
        },
      },
      {
        id: "response",
        type: "response",
        name: "Response",
        position: { x: 480, y: 0 },
        config: { data: { answer: options.answer ?? "<Child.output.answer>" } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "call" },
      { id: "e2", source: "call", target: "response" },
    ],
  };
}

async function createWorkflow(document: unknown) {
  return kit.database.repositories.workflows.create(ws, document as never);
}

async function runToEnd(workflowId: string, input: Record<string, unknown>) {
  const live = await kit.runtime.runs.start(ws, workflowId, input);
  await live.done;
  return kit.database.repositories.runs.getWithSpans(ws, live.runId);
}

const blockSpan = (run: Awaited<ReturnType<typeof runToEnd>>, blockId: string) =>
  run.spans.find((span) => span.kind === "block" && span.blockId === blockId)!;

describe("the Workflow block", () => {
  it("runs nested workflows as child runs: inputs from references, the child's output as the block's, tokens and cost rolled up exactly once", async () => {
    const leaf = await createWorkflow(
      agentWorkflow({ name: "Shout", inputs: [{ name: "text", type: "string" }], userPrompt: "Shout: <start.text>" }),
    );
    const middle = await createWorkflow(callerWorkflow("Relay", leaf.id));
    const top = await createWorkflow(callerWorkflow("Front desk", middle.id, { inputs: { text: "<start.text>!" } }));
    kit.server.enqueue({ kind: "text", text: "HELLO!", usage: { prompt: 30, completion: 5 } });

    const run = await runToEnd(top.id, { text: "hello" });

    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ answer: "HELLO!" });
    expect(kit.server.requests[0]!.parsed.userTexts).toEqual(["Shout: hello!"]);

    const [middleRun] = await kit.database.repositories.runs.listByWorkflow(ws, middle.id);
    const [leafRun] = await kit.database.repositories.runs.listByWorkflow(ws, leaf.id);
    expect(middleRun).toMatchObject({ status: "succeeded" });
    expect(leafRun).toMatchObject({ status: "succeeded" });
    const storedMiddle = await kit.database.repositories.runs.getWithSpans(ws, middleRun!.id);
    expect(storedMiddle.input).toEqual({ text: "hello!" });
    expect(storedMiddle.tokens.total).toBe(35);

    // Each level's block carries its child run (for the trace's link) and the child's totals.
    const topBlock = blockSpan(run, "call");
    expect(topBlock.output).toMatchObject({
      output: { answer: "HELLO!" },
      runId: middleRun!.id,
      workflowId: middle.id,
      tokens: { total: 35 },
    });
    expect(topBlock.usage?.tokens.total).toBe(35);
    expect(blockSpan(storedMiddle, "call").output).toMatchObject({ runId: leafRun!.id, workflowId: leaf.id });
    // Counted once at each level, though each child run is stored with its own totals too.
    expect(run.tokens.total).toBe(35);
    expect(run.cost!.total).toBeGreaterThan(0);
    expect(run.cost!.total).toBeCloseTo(storedMiddle.cost!.total, 10);
    expect(storedMiddle.cost!.total).toBeCloseTo(
      (await kit.database.repositories.runs.get(ws, leafRun!.id)).cost!.total,
      10,
    );
  });

  it("fails naming the workflow id and the block when the called workflow was deleted", async () => {
    const doomed = await createWorkflow(
      agentWorkflow({ name: "Doomed", inputs: [{ name: "text", type: "string" }], userPrompt: "<start.text>" }),
    );
    const caller = await createWorkflow(callerWorkflow("Orphaned caller", doomed.id));
    await kit.database.repositories.workflows.delete(ws, doomed.id);

    const run = await runToEnd(caller.id, { text: "anyone there?" });

    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ code: "invalid_config" });
    expect(run.error?.message).toContain(
      `Workflow block "Child" calls workflow "${doomed.id}", which is not in this workspace (deleted?)`,
    );
    expect(kit.server.requests).toHaveLength(0);
  });

  it("runs the child's active deployment when asked, and fails naming the workflow when it has none", async () => {
    const child = await createWorkflow(
      agentWorkflow({
        name: "Deployed helper",
        inputs: [{ name: "text", type: "string" }],
        userPrompt: "v1: <start.text>",
      }),
    );
    const caller = await createWorkflow(callerWorkflow("Deployment caller", child.id, { target: "deployment" }));

    const undeployed = await runToEnd(caller.id, { text: "hi" });
    expect(undeployed.status).toBe("failed");
    expect(undeployed.error).toMatchObject({ code: "not_deployed" });
    expect(undeployed.error?.message).toContain('Workflow "Deployed helper" has no active deployment to run');

    const { blocks, edges, name, description, variables } = child;
    await kit.database.repositories.deployments.create(ws, child.id, {
      document: { name, description, variables, blocks, edges },
      workflowVersion: child.version,
      note: "",
      createdById: null,
    });
    // The draft changes after the deploy: the deployment still says v1.
    await kit.database.repositories.workflows.update(
      ws,
      child.id,
      agentWorkflow({
        name: "Deployed helper",
        inputs: [{ name: "text", type: "string" }],
        userPrompt: "v2: <start.text>",
      }) as never,
      child.version,
    );
    kit.server.enqueue({ kind: "text", text: "from v1" });
    const deployed = await runToEnd(caller.id, { text: "hi" });
    expect(deployed.status).toBe("succeeded");
    expect(kit.server.requests[0]!.parsed.userTexts).toEqual(["v1: hi"]);

    kit.server.enqueue({ kind: "text", text: "from v2" });
    const draftCaller = await createWorkflow(callerWorkflow("Draft caller", child.id));
    expect((await runToEnd(draftCaller.id, { text: "hi" })).output).toEqual({ answer: "from v2" });
    expect(kit.server.requests[1]!.parsed.userTexts).toEqual(["v2: hi"]);
  });

  it("fails with the child's error and what it spent when the child run fails, keeping the link to it", async () => {
    const fragile = agentWorkflow({
      name: "Fragile",
      inputs: [{ name: "text", type: "string" }],
      userPrompt: "<start.text>",
    });
    const blocks = fragile.blocks.map((block) =>
      block.id === "agent"
        ? {
            ...block,
            config: {
              ...block.config,
              responseFormat: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
            },
          }
        : block,
    );
    const failing = await createWorkflow({ ...fragile, blocks });
    const caller = await createWorkflow(callerWorkflow("Fragile caller", failing.id));
    kit.server.enqueue({ kind: "text", text: "not JSON at all", usage: { prompt: 11, completion: 4 } });

    const run = await runToEnd(caller.id, { text: "hi" });

    expect(run.status).toBe("failed");
    const [childRun] = await kit.database.repositories.runs.listByWorkflow(ws, failing.id);
    expect(run.error).toMatchObject({ code: "invalid_structured_output" });
    expect(run.error?.message).toContain(`Workflow "Fragile" failed: Block 'Agent' failed:`);
    expect(run.error?.message).toContain(`(run ${childRun!.id})`);
    expect(blockSpan(run, "call").output).toEqual({ runId: childRun!.id, workflowId: failing.id });
    // What the child spent before failing counts in the caller's totals.
    expect(run.tokens.total).toBe(15);
  });

  it("counts what the child spent when the block times out before the child ends", async () => {
    const oneCall = agentWorkflow({
      name: "Two steps",
      inputs: [{ name: "text", type: "string" }],
      userPrompt: "first: <start.text>",
    });
    const second = {
      id: "agent2",
      type: "agent",
      name: "Agent 2",
      position: { x: 360, y: 0 },
      config: { model: "openai/gpt-4o-mini", userPrompt: "second" },
    };
    const twoCalls = {
      ...oneCall,
      blocks: [...oneCall.blocks, second],
      edges: [
        { id: "e1", source: "start", target: "agent" },
        { id: "e2", source: "agent", target: "agent2" },
        { id: "e3", source: "agent2", target: "response" },
      ],
    };
    const slow = await createWorkflow(twoCalls);
    const document = callerWorkflow("Impatient caller", slow.id);
    const blocks = document.blocks.map((block) => (block.id === "call" ? { ...block, timeoutMs: 1_500 } : block));
    const caller = await createWorkflow({ ...document, blocks });
    kit.server.enqueue(
      { kind: "text", text: "one", usage: { prompt: 20, completion: 5 } },
      { kind: "text", text: "two", delayMs: 10_000 },
    );

    const run = await runToEnd(caller.id, { text: "hi" });

    expect(run).toMatchObject({ status: "failed", error: { code: "timeout" } });
    const [childRun] = await kit.database.repositories.runs.listByWorkflow(ws, slow.id);
    expect(childRun).toMatchObject({ status: "cancelled" });
    expect((await kit.database.repositories.runs.get(ws, childRun!.id)).tokens.total).toBe(25);
    expect(run.tokens.total).toBe(25);
    expect(blockSpan(run, "call").usage?.tokens.total).toBe(25);
  });

  it("fails saying a child run cannot stop to ask a person, naming both ways of being run by another", async () => {
    const asking = await createWorkflow({
      name: "Asks someone",
      description: "",
      variables: {},
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          config: { inputs: [{ name: "text", type: "string" }] },
        },
        {
          id: "ask",
          type: "ask",
          name: "Ask",
          position: { x: 240, y: 0 },
          config: { question: "Go on?", allowText: true },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "ask" }],
    });
    const run = await runToEnd((await createWorkflow(callerWorkflow("Asking caller", asking.id))).id, { text: "hi" });
    expect(run.status).toBe("failed");
    expect(run.error?.message).toContain(
      "a workflow run by another (as a tool or a Workflow block) cannot stop to wait for an answer",
    );
  });

  it("stops a cycle of Workflow blocks where it closes, naming the chain, and a chain deeper than the limit", async () => {
    const ping = await createWorkflow(callerWorkflow("Ping", "placeholder"));
    const pong = await createWorkflow(callerWorkflow("Pong", ping.id));
    await kit.database.repositories.workflows.update(
      ws,
      ping.id,
      callerWorkflow("Ping", pong.id) as never,
      ping.version,
    );

    const cycle = await runToEnd(ping.id, { text: "go" });
    expect(cycle.status).toBe("failed");
    expect(cycle.error?.message).toContain(
      'Workflow "Ping" is already running in this call chain: "Ping" → "Pong" → "Ping"',
    );

    const leaf = await createWorkflow(
      agentWorkflow({
        name: "Leaf",
        inputs: [{ name: "text", type: "string" }],
        userPrompt: "<start.text>",
        model: "offline/echo",
      }),
    );
    let next = leaf.id;
    for (const name of ["Level 3", "Level 2", "Level 1"]) next = (await createWorkflow(callerWorkflow(name, next))).id;
    const tooDeep = await runToEnd((await createWorkflow(callerWorkflow("Level 0", next))).id, { text: "down" });
    expect(tooDeep.status).toBe("failed");
    expect(tooDeep.error?.message).toContain('Calling workflow "Leaf" would nest workflows 4 deep');
  });
});
