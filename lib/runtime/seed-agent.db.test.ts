import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/lib/db/test-database";
import { testMember } from "@/lib/http/test-members";
import { createKnowledgeService, type KnowledgeService } from "@/lib/knowledge/knowledge-service";
import { runEndpoints } from "@/lib/runs/run-endpoints";
import { createGuardedFetch } from "@/net";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { testServerEnv } from "@/providers/testing/test-model-registry";
import { createRuntime } from "./runtime";

/**
 * The seeds' agent, end to end through the real runtime: it searches the policy knowledge base,
 * calls an order API and runs a small function before answering, against the test LLM server.
 */

let database: TestDatabase;
let llm: TestLlmServer;
let knowledge: KnowledgeService;
let ordersApi: Server;
let ordersUrl: string;
let knowledgeBaseId: string;
/** The workspace the agent, its knowledge base and its runs belong to. */
let ws: string;
/** What the order API received, in order. */
const orderRequests: Array<{ url: string; authorization: string | undefined }> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  llm = await startTestLlmServer();
  ws = await database.createWorkspace();
  knowledge = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  knowledgeBaseId = (await knowledge.createBase(ws, { name: "Policies" })).id;
  const corpus = path.join(process.cwd(), "knowledge", "__fixtures__", "corpus");
  const files = readdirSync(corpus)
    .filter((name) => name.endsWith(".md"))
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(corpus, name))) }));
  await knowledge.uploadDocuments(ws, knowledgeBaseId, files);
  await knowledge.drain();
  ordersApi = createServer((request, response) => {
    orderRequests.push({ url: request.url ?? "", authorization: request.headers.authorization });
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ orderId: request.url?.split("/").pop(), total: 129.5, purchasedDaysAgo: 12 }));
  });
  await new Promise<void>((resolve) => ordersApi.listen(0, "127.0.0.1", resolve));
  ordersUrl = `http://127.0.0.1:${(ordersApi.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await knowledge?.stop();
  await new Promise((resolve) => ordersApi?.close(resolve));
  await llm?.close();
  await database?.close();
});

function makeRuntime() {
  const env = testServerEnv(llm);
  return createRuntime({
    repositories: database.repositories,
    knowledgeSearch: (workspaceId, request, options) => knowledge.search(workspaceId, request, options),
    processEnv: (name) => env[name as keyof typeof env],
    // The order API runs on loopback, which the guard refuses unless the operator allows it.
    guardedFetch: createGuardedFetch({ allowHosts: new URL(ordersUrl).host }),
  });
}

describe("the seed's support agent", () => {
  it("searches the knowledge base, calls an API and runs a function, and reports each tool call and the cost", async () => {
    const runtime = makeRuntime();
    const workflow = await database.repositories.workflows.create(ws, {
      name: "Refund helper",
      description: "",
      variables: {},
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: { inputs: [{ name: "question", type: "string" }] },
        },
        {
          id: "agent",
          type: "agent",
          name: "Support Agent",
          position: { x: 200, y: 0 },
          parentId: null,
          enabled: true,
          config: {
            model: "openai/gpt-4o-mini",
            systemPrompt: "Use the knowledge base, the order API and the refund calculator before answering.",
            userPrompt: "<start.question>",
            tools: [
              { type: "knowledge_search", params: { knowledgeBaseId, topK: 3 } },
              { type: "http_request" },
              {
                type: "run_function",
                name: "refund_amount",
                params: { code: "return { refund: Math.round(services.inputs.total * 0.9 * 100) / 100 };" },
              },
            ],
          },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent" }],
    });
    llm.enqueue(
      {
        kind: "tool-calls",
        calls: [
          { id: "call_kb", name: "knowledge_search", arguments: { query: "refund policy" } },
          { id: "call_api", name: "http_request", arguments: { url: `${ordersUrl}/orders/A-17`, method: "GET" } },
        ],
        usage: { prompt: 150, completion: 30 },
      },
      {
        kind: "tool-calls",
        calls: [{ id: "call_fn", name: "refund_amount", arguments: { total: 129.5 } }],
        usage: { prompt: 420, completion: 18 },
      },
      {
        kind: "text",
        text: "Order A-17 is within the 30-day window: you get $116.55 back.",
        usage: { prompt: 510, completion: 22 },
      },
    );

    const endpoints = runEndpoints(() => ({ runs: runtime.runs, repositories: database.repositories }));
    const response = await endpoints.start(
      new Request("http://localhost/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ input: { question: "What is our refund policy for order A-17?" }, wait: true }),
      }),
      { id: workflow.id },
      testMember(ws),
    );
    const run = (await response.json()) as {
      status: string;
      tokens: { total: number };
      spans: Array<{ kind: string; name?: string; output: unknown; tokens: { total: number } | null }>;
    };
    expect(run.status).toBe("succeeded");
    const agentSpan = run.spans.find((span) => span.kind === "block" && (span.output as { content?: string })?.content);
    const output = agentSpan?.output as {
      content: string;
      toolCalls: { count: number; list: Array<{ name: string; result: unknown }> };
    };
    expect(output.content).toContain("$116.55");
    expect(output.toolCalls.count).toBe(3);
    const results = Object.fromEntries(output.toolCalls.list.map((call) => [call.name, call.result]));
    expect(JSON.stringify(results.knowledge_search)).toMatch(/refund/i);
    expect(results.http_request).toMatchObject({ status: 200 });
    expect(JSON.stringify(results.http_request)).toMatch(/orderId.{0,6}A-17/);
    expect(results.refund_amount).toMatchObject({ result: { refund: 116.55 } });
    expect(
      run.spans
        .filter((span) => span.kind === "tool")
        .map((span) => span.name)
        .sort(),
    ).toEqual(["http_request", "knowledge_search", "refund_amount"]);
    expect(run.spans.filter((span) => span.kind === "model")).toHaveLength(3);
    expect(run.tokens.total).toBe(150 + 30 + 420 + 18 + 510 + 22);
    // The tool loop's second request carried the tool results back to the model.
    expect(JSON.stringify(llm.requests[1]?.body)).toContain("A-17");
  });

  it("reads the secrets of its run's workspace only: a token stored in another workspace is not found, its own is sent", async () => {
    const runtime = makeRuntime();
    const other = await database.createWorkspace("Other");
    await database.repositories.secrets.set(other, "ORDERS_API_TOKEN", "orders-token-of-the-other-workspace");
    const workflow = await database.repositories.workflows.create(ws, {
      name: "Order lookup",
      description: "",
      variables: {},
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: { inputs: [] },
        },
        {
          id: "agent",
          type: "agent",
          name: "Support Agent",
          position: { x: 200, y: 0 },
          parentId: null,
          enabled: true,
          config: {
            model: "openai/gpt-4o-mini",
            userPrompt: "Look up order A-17.",
            tools: [{ type: "http_request", params: { headers: { authorization: "Bearer {{ORDERS_API_TOKEN}}" } } }],
          },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent" }],
    });
    const requestsBefore = llm.requests.length;
    orderRequests.length = 0;

    const refused = await (await runtime.runs.start(ws, workflow.id)).done;
    expect(refused.status).toBe("failed");
    expect(refused.error?.message).toContain("no secret named ORDERS_API_TOKEN");
    expect(JSON.stringify(refused)).not.toContain("orders-token-of-the-other-workspace");
    expect(llm.requests.length).toBe(requestsBefore);
    expect(orderRequests).toEqual([]);

    await database.repositories.secrets.set(ws, "ORDERS_API_TOKEN", "orders-token-of-this-workspace");
    llm.enqueue(
      {
        kind: "tool-calls",
        calls: [
          { id: "call_api", name: "http_request", arguments: { url: `${ordersUrl}/orders/A-17`, method: "GET" } },
        ],
      },
      { kind: "text", text: "Order A-17 totals $129.50." },
    );
    const answered = await (await runtime.runs.start(ws, workflow.id)).done;
    expect(answered.status).toBe("succeeded");
    expect(orderRequests).toEqual([{ url: "/orders/A-17", authorization: "Bearer orders-token-of-this-workspace" }]);
  });

  it("searches only its run's workspace's knowledge bases: another workspace's agent naming this base finds nothing", async () => {
    const runtime = makeRuntime();
    const other = await database.createWorkspace("Searcher");
    const workflow = await database.repositories.workflows.create(other, {
      name: "Borrowed base",
      description: "",
      variables: {},
      blocks: [
        {
          id: "start",
          type: "start",
          name: "Start",
          position: { x: 0, y: 0 },
          parentId: null,
          enabled: true,
          config: { inputs: [] },
        },
        {
          id: "agent",
          type: "agent",
          name: "Agent",
          position: { x: 200, y: 0 },
          parentId: null,
          enabled: true,
          config: {
            model: "openai/gpt-4o-mini",
            userPrompt: "What is the refund policy?",
            tools: [{ type: "knowledge_search", params: { knowledgeBaseId, topK: 3 } }],
          },
        },
      ],
      edges: [{ id: "e1", source: "start", target: "agent" }],
    });
    llm.enqueue(
      {
        kind: "tool-calls",
        calls: [{ id: "call_kb", name: "knowledge_search", arguments: { query: "refund policy" } }],
      },
      { kind: "text", text: "I could not find it." },
    );
    const run = await (await runtime.runs.start(other, workflow.id)).done;
    const { spans } = await database.repositories.runs.getWithSpans(other, run.id);
    const toolSpan = spans.find((span) => span.kind === "tool");
    expect(toolSpan).toMatchObject({ name: "knowledge_search", status: "failed", error: { code: "not_found" } });
    expect(JSON.stringify(spans)).not.toContain("original payment method");
    // What it would have found in its own workspace.
    expect(
      JSON.stringify(
        await knowledge.search(ws, { knowledgeBaseIds: [knowledgeBaseId], query: "refund policy", topK: 3 }),
      ),
    ).toContain("original payment method");
  });
});
