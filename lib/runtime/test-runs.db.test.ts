import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  workflowDocumentSchema,
  type ApiRun,
  type ApiSpan,
  type UsageReport,
  type WorkflowDocumentInput,
} from "@/contract";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { startRerun } from "@/lib/runs/rerun";
import { runEndpoints } from "@/lib/runs/run-endpoints";
import { usageEndpoints } from "@/lib/usage/usage-endpoints";
import { createUsageService } from "@/lib/usage/usage-service";
import { parseWorkflowDocument } from "@/lib/workflows/parse-document";
import { createGuardedFetch } from "@/net";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { FIXTURE_SERVER_SCRIPT } from "@/tools/mcp/__fixtures__/mcp-fixtures";
import { createRuntime } from "./runtime";

/**
 * Test runs (`test: true`) through the real runtime: an API block, a Web block, a Function block's
 * services.fetch and an agent's http_request and MCP tools, against a local server that records
 * what reaches it and the stdio MCP fixture logging its calls. Models run for real (the test LLM
 * server) unless a block has a recorded answer.
 */

let database: TestDatabase;
let llm: TestLlmServer;
let sideEffects: Server;
let serverUrl: string;
let callLog: string;
let ws: string;
/** What the local server received, in order. */
const received: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  llm = await startTestLlmServer();
  ws = await database.createWorkspace();
  sideEffects = createServer((request, response) => {
    received.push({ method: request.method ?? "", url: request.url ?? "" });
    if (request.url === "/page") {
      response.setHeader("content-type", "text/html");
      response.end("<html><head><title>Live page</title></head><body><p>The live page text.</p></body></html>");
      return;
    }
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ live: true, path: request.url }));
  });
  await new Promise<void>((resolve) => sideEffects.listen(0, "127.0.0.1", resolve));
  serverUrl = `http://127.0.0.1:${(sideEffects.address() as AddressInfo).port}`;
  callLog = path.join(mkdtempSync(path.join(tmpdir(), "trellis-test-runs-")), "mcp-calls.log");
});

afterAll(async () => {
  await new Promise((resolve) => sideEffects?.close(resolve));
  await llm?.close();
  await database?.close();
});

function makeRuntime() {
  const env: Record<string, string> = {
    ...testServerEnv(llm),
    TRELLIS_MCP_SERVERS: JSON.stringify({
      fixture: {
        transport: "stdio",
        command: process.execPath,
        args: [FIXTURE_SERVER_SCRIPT],
        env: { FIXTURE_CALL_LOG: callLog },
      },
    }),
  };
  return createRuntime({
    repositories: database.repositories,
    knowledgeSearch: async () => ({ results: [] }) as never,
    processEnv: (name) => env[name],
    // The local server is on loopback, which the guard refuses unless the operator allows it.
    guardedFetch: createGuardedFetch({ allowHosts: new URL(serverUrl).host }),
  });
}

/** Stored as a save stores it: shape-checked, defaults applied. */
const createWorkflow = (document: WorkflowDocumentInput) =>
  database.repositories.workflows.create(ws, workflowDocumentSchema.parse(document));

const at = (x: number) => ({ position: { x, y: 0 }, parentId: null, enabled: true });

function sideEffectsWorkflow(): WorkflowDocumentInput {
  return {
    name: "Side effects",
    blocks: [
      { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
      {
        id: "api",
        type: "api",
        name: "Create Order",
        ...at(200),
        config: { url: `${serverUrl}/orders`, method: "POST", body: { item: "book" } },
        testing: { http: { status: 201, headers: { "X-Order": "sample" }, body: { orderId: "sample-1" } } },
      },
      {
        id: "web",
        type: "web",
        name: "Read Page",
        ...at(400),
        config: { url: `${serverUrl}/page` },
        testing: { page: { title: "Sample page", text: "The sample page text." } },
      },
      {
        id: "code",
        type: "function",
        name: "Notify",
        ...at(600),
        // No sample: the fetch gets the "no sample" answer and the code goes on.
        config: {
          code: `const answer = await services.fetch("${serverUrl}/notify", { method: "POST", body: { x: 1 } }); return answer;`,
        },
      },
      {
        id: "agent",
        type: "agent",
        name: "Agent",
        ...at(800),
        config: {
          model: "openai/gpt-4o-mini",
          userPrompt: "Do the three things.",
          tools: [
            { type: "http_request" },
            { type: "mcp", params: { server: "fixture", tools: ["add_numbers", "read_note"] } },
          ],
        },
        // add_numbers has no sample; read_note says readOnlyHint, so it is called for real.
        testing: { tools: { http_request: { status: 202, ok: true, body: "queued (sample)" } } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "api" },
      { id: "e2", source: "api", target: "web" },
      { id: "e3", source: "web", target: "code" },
      { id: "e4", source: "code", target: "agent" },
    ],
  };
}

function scriptAgent() {
  llm.enqueue(
    {
      kind: "tool-calls",
      calls: [
        {
          id: "call_http",
          name: "http_request",
          arguments: { url: `${serverUrl}/agent-call`, method: "POST", body: { y: 2 } },
        },
        { id: "call_add", name: "add_numbers", arguments: { a: 1, b: 2 } },
        { id: "call_note", name: "read_note", arguments: { title: "groceries" } },
      ],
    },
    { kind: "text", text: "All three done." },
  );
}

async function startRun(workflowId: string, body: Record<string, unknown>): Promise<ApiRun> {
  const runtime = makeRuntime();
  const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
  const response = await endpoints.start(
    new Request("http://localhost/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, wait: true }),
    }),
    { id: workflowId },
    testMember(ws),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ApiRun;
}

const blockSpan = (run: ApiRun, blockId: string) =>
  run.spans.find((span) => span.kind === "block" && span.blockId === blockId) as ApiSpan;
const toolSpan = (run: ApiRun, name: string) =>
  run.spans.find((span) => span.kind === "tool" && span.name === name) as ApiSpan;
const loggedCalls = () => {
  try {
    return readFileSync(callLog, "utf8").trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

describe("a test run", () => {
  it("sends nothing: API, web, services.fetch, http_request and MCP calls answer from the samples or say there is none", async () => {
    const workflow = await createWorkflow(sideEffectsWorkflow());
    // The samples survive the save.
    expect(
      (await database.repositories.workflows.get(ws, workflow.id)).blocks.find((block) => block.id === "api")?.testing
        ?.http?.status,
    ).toBe(201);
    received.length = 0;
    writeFileSync(callLog, "");
    const llmRequestsBefore = llm.requests.length;
    scriptAgent();

    const run = await startRun(workflow.id, { test: true });

    expect(run.status).toBe("succeeded");
    expect(run.test).toBe(true);
    expect(received).toEqual([]);
    // Only the read-only MCP tool reached the server.
    expect(loggedCalls()).toEqual([`read_note {"title":"groceries"}`]);
    // The model ran for real: the tool loop's two calls.
    expect(llm.requests.length - llmRequestsBefore).toBe(2);

    expect(blockSpan(run, "api")).toMatchObject({
      simulated: "sample",
      output: { status: 201, headers: { "x-order": "sample" }, data: { orderId: "sample-1" } },
    });
    expect(blockSpan(run, "web")).toMatchObject({
      simulated: "sample",
      output: { title: "Sample page", text: "The sample page text.", status: 200 },
    });

    const fetchSpan = toolSpan(run, "services.fetch");
    expect(fetchSpan.simulated).toBe("no-sample");
    const notify = blockSpan(run, "code").output as { result: { status: number; ok: boolean; noSample: string } };
    expect(notify.result).toMatchObject({ status: 0, ok: false });
    expect(notify.result.noSample).toContain("block 'Notify' has no test sample");

    expect(toolSpan(run, "http_request")).toMatchObject({
      simulated: "sample",
      output: { status: 202, body: "queued (sample)" },
    });
    const add = toolSpan(run, "add_numbers");
    expect(add.simulated).toBe("no-sample");
    expect(JSON.stringify(add.output)).toContain("has no test sample");
    const note = toolSpan(run, "read_note");
    expect(note.simulated).toBeUndefined();
    expect(JSON.stringify(note.output)).toContain("buy milk");
    // What the model got back for the call with no sample says so.
    expect(JSON.stringify(llm.requests.at(-1)?.body)).toContain("has no test sample");

    const listed = await database.repositories.runs.listByWorkflow(ws, workflow.id);
    expect(listed.find((item) => item.id === run.id)?.test).toBe(true);

    // Run from a block of a test run: a test run too, still sending nothing.
    received.length = 0;
    scriptAgent();
    const { live } = await startRerun(makeRuntime().runs, database.repositories, ws, {
      runId: run.id,
      blockId: "code",
      trigger: { kind: "editor" },
    });
    const rerun = await live.done;
    expect(rerun).toMatchObject({ status: "succeeded", test: true, rerunOf: { runId: run.id, blockId: "code" } });
    expect(received).toEqual([]);
  });

  it("is not the default: the same workflow run for real sends every call and ignores the samples", async () => {
    const workflow = await createWorkflow(sideEffectsWorkflow());
    received.length = 0;
    writeFileSync(callLog, "");
    scriptAgent();

    const run = await startRun(workflow.id, {});

    expect(run.status).toBe("succeeded");
    expect(run.test).toBe(false);
    expect(received).toEqual([
      { method: "POST", url: "/orders" },
      { method: "GET", url: "/page" },
      { method: "POST", url: "/notify" },
      { method: "POST", url: "/agent-call" },
    ]);
    expect(loggedCalls()).toEqual([`add_numbers {"a":1,"b":2}`, `read_note {"title":"groceries"}`]);
    expect(run.spans.some((span) => span.simulated)).toBe(false);
    expect(blockSpan(run, "api").output).toMatchObject({ status: 200, data: { live: true, path: "/orders" } });
    expect(blockSpan(run, "web").output).toMatchObject({ title: "Live page" });
  });

  it("returns a block's recorded answer without calling its model; a real run calls the model", async () => {
    const workflow = await createWorkflow({
      name: "Recorded",
      blocks: [
        { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
        {
          id: "agent",
          type: "agent",
          name: "Writer",
          ...at(200),
          config: { model: "openai/gpt-4o-mini", userPrompt: "Write a greeting." },
          testing: {
            recorded: {
              runId: "run-earlier",
              spanId: "span-earlier",
              output: { content: "Recorded hello", model: "openai/gpt-4o-mini" },
            },
          },
        },
        { id: "reply", type: "response", name: "Reply", ...at(400), config: { data: "<Writer.content>" } },
      ],
      edges: [
        { id: "e1", source: "start", target: "agent" },
        { id: "e2", source: "agent", target: "reply" },
      ],
    });
    const before = llm.requests.length;

    const tested = await startRun(workflow.id, { test: true });
    expect(tested.status).toBe("succeeded");
    expect(tested.output).toBe("Recorded hello");
    expect(llm.requests.length).toBe(before);
    expect(blockSpan(tested, "agent").simulated).toBe("recorded");
    expect(tested.spans.filter((span) => span.kind === "model")).toHaveLength(0);
    expect(tested.cost).toEqual({ input: 0, output: 0, total: 0 });

    llm.enqueue({ kind: "text", text: "A live hello" });
    const real = await startRun(workflow.id, {});
    expect(real.output).toBe("A live hello");
    expect(llm.requests.length).toBe(before + 1);

    // Usage counts both runs and says which was a test run; by model, only the real run called one.
    const usage = async (groupBy: string) => {
      const response = await usageEndpoints(() => createUsageService(database.prisma)).report(
        new Request(`http://localhost/api/usage?groupBy=${groupBy}&workflowId=${workflow.id}`),
        {},
        testMember(ws),
      );
      expect(response.status).toBe(200);
      return (await response.json()) as UsageReport;
    };
    expect((await usage("workflow")).totals).toMatchObject({ runs: 2, testRuns: 1 });
    expect((await usage("model")).rows).toEqual([
      expect.objectContaining({ key: "openai/gpt-4o-mini", runs: 1, testRuns: 0 }),
    ]);
  });

  it("makes the workflows it runs test runs too: a Workflow block's child sends nothing", async () => {
    const child = await createWorkflow({
      name: "Child that posts",
      blocks: [
        { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
        {
          id: "post",
          type: "api",
          name: "Post",
          ...at(200),
          config: { url: `${serverUrl}/child`, method: "POST", body: { z: 3 } },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "post" }],
    });
    const parent = await createWorkflow({
      name: "Parent",
      blocks: [
        { id: "start", type: "start", name: "Start", ...at(0), config: { inputs: [] } },
        { id: "call", type: "workflow", name: "Call Child", ...at(200), config: { workflowId: child.id } },
      ],
      edges: [{ id: "e1", source: "start", target: "call" }],
    });
    received.length = 0;

    const run = await startRun(parent.id, { test: true });

    expect(run.status).toBe("succeeded");
    expect(received).toEqual([]);
    const childRunId = (blockSpan(run, "call").output as { runId: string }).runId;
    const childRun = await database.repositories.runs.getWithSpans(ws, childRunId);
    expect(childRun.test).toBe(true);
    expect(childRun.spans.find((span) => span.blockId === "post" && span.kind === "block")?.simulated).toBe(
      "no-sample",
    );
  });

  it("keeps samples through a save's validation and refuses a malformed one, naming where it is", () => {
    const parsed = parseWorkflowDocument(sideEffectsWorkflow());
    expect(parsed.document.blocks.find((block) => block.id === "agent")?.testing?.tools).toEqual({
      http_request: { status: 202, ok: true, body: "queued (sample)" },
    });
    const document = sideEffectsWorkflow();
    document.blocks![1]!.testing = { http: { status: 42 } };
    expect(() => parseWorkflowDocument(document)).toThrow(/blocks\[1\]\.testing\.http\.status/);
  });
});
