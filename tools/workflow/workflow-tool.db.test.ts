import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { workflowCallRuntime } from "@/lib/runtime/workflow-call-runtime";
import { agentWorkflow } from "./__fixtures__/agent-workflow";

let kit: RunTestKit;
/** The workspace the tests' workflows and runs belong to. */
let ws: string;
beforeAll(async () => {
  kit = await startRunTestKit();
  ws = await kit.database.createWorkspace();
});
afterAll(() => kit.close());
beforeEach(() => {
  kit.server.requests.length = 0;
});

async function createWorkflow(document: unknown, workspaceId = ws) {
  return kit.database.repositories.workflows.create(workspaceId, document as never);
}

async function runToEnd(workflowId: string, input: Record<string, unknown>, workspaceId = ws) {
  const live = await kit.runtime.runs.start(workspaceId, workflowId, input);
  await live.done;
  return kit.database.repositories.runs.getWithSpans(workspaceId, live.runId);
}

describe("workflows as tools", () => {
  it("lets an agent call another workflow: its start inputs are the parameters, its output the result, its run stored and its spending counted", async () => {
    const child = await createWorkflow(
      agentWorkflow({
        name: "Summarise Ticket!",
        description: "Summarises a support ticket in one line.",
        inputs: [
          { name: "ticket", type: "string", description: "The ticket text" },
          { name: "maxWords", type: "number", default: 12 },
        ],
        userPrompt: "Summarise in <start.maxWords> words: <start.ticket>",
      }),
    );
    const parent = await createWorkflow(
      agentWorkflow({
        name: "Triage",
        inputs: [{ name: "question", type: "string" }],
        userPrompt: "<start.question>",
        tools: [{ type: "workflow", params: { workflowId: child.id } }],
      }),
    );
    kit.server.enqueue(
      {
        kind: "tool-calls",
        calls: [
          {
            id: "call_sum",
            name: "summarise_ticket",
            arguments: { ticket: "The parcel arrived crushed and the vase inside is broken." },
          },
        ],
        usage: { prompt: 100, completion: 20 },
      },
      { kind: "text", text: "Broken vase in crushed parcel.", usage: { prompt: 40, completion: 7 } },
      { kind: "text", text: "The ticket is about a broken vase.", usage: { prompt: 150, completion: 9 } },
    );

    const run = await runToEnd(parent.id, { question: "What is the ticket about?" });

    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ answer: "The ticket is about a broken vase." });
    const offered = kit.server.requests[0]!.body.tools[0].function;
    expect(offered).toMatchObject({
      name: "summarise_ticket",
      description: "Summarises a support ticket in one line.",
      parameters: {
        type: "object",
        properties: { ticket: { type: "string", description: "The ticket text" }, maxWords: { type: "number" } },
        required: ["ticket"],
      },
    });
    // The child ran with the model's arguments and its start default.
    expect(kit.server.requests[1]!.parsed.userTexts).toEqual([
      "Summarise in 12 words: The parcel arrived crushed and the vase inside is broken.",
    ]);

    const childRuns = await kit.database.repositories.runs.listByWorkflow(ws, child.id);
    expect(childRuns).toHaveLength(1);
    const childRun = await kit.database.repositories.runs.get(ws, childRuns[0]!.id);
    expect(childRun).toMatchObject({
      status: "succeeded",
      input: { ticket: "The parcel arrived crushed and the vase inside is broken." },
      output: { answer: "Broken vase in crushed parcel." },
    });
    expect(childRun.tokens.total).toBe(47);

    const toolSpan = run.spans.find((span) => span.kind === "tool")!;
    expect(toolSpan).toMatchObject({
      name: "summarise_ticket",
      status: "succeeded",
      output: { runId: childRun.id, output: { answer: "Broken vase in crushed parcel." } },
    });
    expect(toolSpan.usage?.tokens.total).toBe(47);
    // The parent's agent (and so the parent run) counts the child's tokens once: 120 + 159 of its own, 47 through the tool.
    const agentSpan = run.spans.find((span) => span.kind === "block" && span.blockId === "agent")!;
    expect(agentSpan.usage?.tokens.total).toBe(120 + 159 + 47);
    expect(run.tokens.total).toBe(120 + 159 + 47);
    expect(run.cost!.total).toBeCloseTo(agentSpan.usage!.cost!.total, 10);
  });

  it("takes start inputs pre-filled in the entry (references resolved) out of the model's parameters and runs the child with them", async () => {
    const child = await createWorkflow(
      agentWorkflow({
        name: "Summarise",
        inputs: [
          { name: "ticket", type: "string" },
          { name: "maxWords", type: "number" },
        ],
        userPrompt: "Summarise in <start.maxWords> words: <start.ticket>",
      }),
    );
    const parent = await createWorkflow(
      agentWorkflow({
        name: "Triage with a limit",
        inputs: [
          { name: "question", type: "string" },
          { name: "words", type: "number" },
        ],
        userPrompt: "<start.question>",
        tools: [
          {
            type: "workflow",
            name: "summarise",
            params: { workflowId: child.id, inputs: { maxWords: "<start.words>" } },
          },
        ],
      }),
    );
    kit.server.enqueue(
      {
        kind: "tool-calls",
        calls: [
          { id: "call_1", name: "summarise", arguments: { ticket: "Crushed parcel, broken vase.", maxWords: 99 } },
        ],
      },
      {
        kind: "tool-calls",
        calls: [{ id: "call_2", name: "summarise", arguments: { ticket: "Crushed parcel, broken vase." } }],
      },
      { kind: "text", text: "Broken vase." },
      { kind: "text", text: "A broken vase." },
    );

    const run = await runToEnd(parent.id, { question: "What is it about?", words: 5 });

    expect(run.status).toBe("succeeded");
    expect(kit.server.requests[0]!.body.tools[0].function.parameters).toMatchObject({
      properties: { ticket: { type: "string" } },
      required: ["ticket"],
    });
    expect(Object.keys(kit.server.requests[0]!.body.tools[0].function.parameters.properties)).toEqual(["ticket"]);
    // A pre-filled input is not the model's to give: a call that sends one is refused, naming it, and runs nothing.
    expect(kit.server.requests[1]!.parsed.allText).toContain("maxWords");
    expect(kit.server.requests[2]!.parsed.userTexts).toEqual(["Summarise in 5 words: Crushed parcel, broken vase."]);
    expect(kit.server.pending()).toBe(0);
  });

  it("refuses a pre-filled input the called workflow does not have, naming it, before any model call", async () => {
    const child = await createWorkflow(
      agentWorkflow({ name: "Echo child", inputs: [{ name: "ticket", type: "string" }], userPrompt: "<start.ticket>" }),
    );
    const parent = await createWorkflow(
      agentWorkflow({
        name: "Wrong prefill",
        inputs: [{ name: "question", type: "string" }],
        userPrompt: "<start.question>",
        tools: [{ type: "workflow", name: "echo", params: { workflowId: child.id, inputs: { tiket: "x" } } }],
      }),
    );
    const run = await runToEnd(parent.id, { question: "?" });
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({
      code: "invalid_tool",
      message: expect.stringContaining(`pre-fills "tiket", which is not a start input of workflow "Echo child"`),
    });
    expect(kit.server.requests).toHaveLength(0);
  });

  it("stops a workflow that lists itself as a tool before any model call, naming the chain", async () => {
    const selfCalling = await createWorkflow(
      agentWorkflow({ name: "Echo forever", inputs: [{ name: "text", type: "string" }], userPrompt: "<start.text>" }),
    );
    const document = agentWorkflow({
      name: "Echo forever",
      inputs: [{ name: "text", type: "string" }],
      userPrompt: "<start.text>",
      tools: [{ type: "workflow", params: { workflowId: selfCalling.id } }],
    });
    await kit.database.repositories.workflows.update(ws, selfCalling.id, document as never, selfCalling.version);

    const run = await runToEnd(selfCalling.id, { text: "hello" });

    expect(run.status).toBe("failed");
    expect(run.error?.message).toContain(
      'Workflow "Echo forever" is already running in this call chain: "Echo forever" → "Echo forever"',
    );
    expect(kit.server.requests).toHaveLength(0);
    expect(await kit.database.repositories.runs.listByWorkflow(ws, selfCalling.id)).toHaveLength(1);
  });

  it("stops a cycle through another workflow where it closes, and the first agent hears why", async () => {
    const first = await createWorkflow(
      agentWorkflow({ name: "Ping", inputs: [{ name: "text", type: "string" }], userPrompt: "<start.text>" }),
    );
    const second = await createWorkflow(
      agentWorkflow({
        name: "Pong",
        inputs: [{ name: "text", type: "string" }],
        userPrompt: "<start.text>",
        tools: [{ type: "workflow", params: { workflowId: first.id } }],
      }),
    );
    await kit.database.repositories.workflows.update(
      ws,
      first.id,
      agentWorkflow({
        name: "Ping",
        inputs: [{ name: "text", type: "string" }],
        userPrompt: "<start.text>",
        tools: [{ type: "workflow", params: { workflowId: second.id } }],
      }) as never,
      first.version,
    );
    kit.server.enqueue(
      { kind: "tool-calls", calls: [{ name: "pong", arguments: { text: "hi" } }] },
      { kind: "text", text: "Pong could not run." },
    );

    const run = await runToEnd(first.id, { text: "start" });

    expect(run.status).toBe("succeeded");
    const toolSpan = run.spans.find((span) => span.kind === "tool")!;
    expect(toolSpan.status).toBe("failed");
    expect(toolSpan.error?.message).toContain(
      'Workflow "Ping" is already running in this call chain: "Ping" → "Pong" → "Ping"',
    );
    expect(kit.server.requests.at(-1)!.parsed.allText).toContain("already running in this call chain");
    const pongRuns = await kit.database.repositories.runs.listByWorkflow(ws, second.id);
    expect(pongRuns.map((summary) => summary.status)).toEqual(["failed"]);
  });

  it("cannot call a workflow of another workspace: the tool fails as not found, before any model call, and nothing runs there", async () => {
    const other = await kit.database.createWorkspace("Other");
    const foreign = await createWorkflow(
      agentWorkflow({
        name: "Their secret helper",
        inputs: [{ name: "text", type: "string" }],
        userPrompt: "<start.text>",
        model: "offline/echo",
      }),
      other,
    );
    const caller = await createWorkflow(
      agentWorkflow({
        name: "Borrower",
        inputs: [{ name: "question", type: "string" }],
        userPrompt: "<start.question>",
        tools: [{ type: "workflow", params: { workflowId: foreign.id } }],
      }),
    );

    const run = await runToEnd(caller.id, { question: "Use their helper" });

    expect(run.status).toBe("failed");
    expect(run.error?.message).toContain(
      `The workflow tool cannot use workflow "${foreign.id}": Workflow "${foreign.id}" was not found`,
    );
    expect(run.error?.message).not.toContain("Their secret helper");
    expect(kit.server.requests).toHaveLength(0);
    expect(await kit.database.repositories.runs.listByWorkflow(other, foreign.id)).toEqual([]);

    // The same workflow is callable from its own workspace.
    const own = await createWorkflow(
      agentWorkflow({
        name: "Their caller",
        inputs: [{ name: "question", type: "string" }],
        userPrompt: "<start.question>",
        tools: [{ type: "workflow", params: { workflowId: foreign.id } }],
      }),
      other,
    );
    kit.server.enqueue(
      { kind: "tool-calls", calls: [{ name: "their_secret_helper", arguments: { text: "hi" } }] },
      { kind: "text", text: "Done." },
    );
    expect((await runToEnd(own.id, { question: "Use the helper" }, other)).status).toBe("succeeded");
    expect(await kit.database.repositories.runs.listByWorkflow(other, foreign.id)).toHaveLength(1);
  });

  it("the tool's server side finds only the workspace's workflows, and starts no run of another's", async () => {
    const other = await kit.database.createWorkspace("Elsewhere");
    const foreign = await createWorkflow(
      agentWorkflow({ name: "Elsewhere", inputs: [], userPrompt: "hi", model: "offline/echo" }),
      other,
    );
    const deps = workflowCallRuntime(ws, kit.database.repositories, () => kit.runtime.runs, 3);
    await expect(deps.describeWorkflow(foreign.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(
      deps.runWorkflow({
        workflowId: foreign.id,
        input: {},
        depth: 1,
        signal: new AbortController().signal,
        parentRunId: "no-parent",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await kit.database.repositories.runs.listByWorkflow(other, foreign.id)).toEqual([]);
    expect(
      await workflowCallRuntime(other, kit.database.repositories, () => kit.runtime.runs, 3).describeWorkflow(
        foreign.id,
      ),
    ).toMatchObject({
      id: foreign.id,
      name: "Elsewhere",
    });
  });
});
