import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolEntries } from "@/contract";
import { withConfigParsing } from "@/blocks/__fixtures__/with-config-parsing";
import { createAgentHandler } from "@/blocks/agent/handler";
import type { KnowledgeSearchFunction } from "@/knowledge";
import { createKnowledgeService, type KnowledgeService } from "@/lib/knowledge/knowledge-service";
import { createTestDatabase } from "@/lib/db/test-database";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { createToolRegistry } from "../registry";
import { createKnowledgeSearchToolProvider } from "./knowledge-search-tool";

const CORPUS = fileURLToPath(new URL("../../knowledge/__fixtures__/corpus/", import.meta.url));

let server: TestLlmServer;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let knowledge: KnowledgeService;
let policiesId: string;
/** The search the tool gets in a run: bound to the run's workspace. */
let search: KnowledgeSearchFunction;

beforeAll(async () => {
  server = await startTestLlmServer();
  database = await createTestDatabase();
  knowledge = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  const ws = await database.createWorkspace();
  search = (request, options) => knowledge.search(ws, request, options);
  policiesId = (await knowledge.createBase(ws, { name: "kb-policies" })).id;
  const files = readdirSync(CORPUS)
    .filter((name) => name.endsWith(".md"))
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(CORPUS + name)) }));
  await knowledge.uploadDocuments(ws, policiesId, files);
  await knowledge.drain();
});

afterAll(async () => {
  await knowledge?.stop();
  await database?.close();
  await server?.close();
});

describe("knowledge_search tool", () => {
  it("runs the seed scenario: the agent searches the policy base before answering the refund question", async () => {
    server.enqueue(
      {
        kind: "tool-calls",
        calls: [{ id: "call_1", name: "knowledge_search", arguments: { query: "refund policy" } }],
        usage: { prompt: 120, completion: 12 },
      },
      {
        kind: "text",
        text: "You can get a full refund within 30 days of purchase.",
        usage: { prompt: 245, completion: 48 },
      },
    );
    const tools = createToolRegistry([createKnowledgeSearchToolProvider({ search })]);
    const agent = withConfigParsing("agent", createAgentHandler({ models: createTestModelRegistry(server), tools }));
    const { output } = await agent({
      config: {
        model: "openai/gpt-4o",
        systemPrompt:
          "You are a customer support assistant. Use the knowledge base tool to find relevant information before responding.",
        userPrompt: "What is our refund policy?",
        temperature: 0.7,
        tools: [{ type: "knowledge_search", params: { knowledgeBaseId: policiesId, topK: 3 } }],
      },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });

    expect(output.content).toBe("You can get a full refund within 30 days of purchase.");
    const toolCalls = output.toolCalls as {
      count: number;
      list: Array<{
        name: string;
        arguments: unknown;
        result: { results: Array<{ documentName: string; content: string }>; totalResults: number };
      }>;
    };
    expect(toolCalls.count).toBe(1);
    expect(toolCalls.list[0]).toMatchObject({ name: "knowledge_search", arguments: { query: "refund policy" } });
    expect(toolCalls.list[0]!.result.totalResults).toBe(3);
    expect(toolCalls.list[0]!.result.results[0]!.documentName).toBe("refund-policy.md");
    // The model's second call received the passage it should base its answer on.
    expect(JSON.stringify(server.requests[1]?.body)).toContain("full refund within 30 days of purchase");
    expect(server.requests[0]?.body.tools?.[0]?.function?.name).toBe("knowledge_search");
  });

  it("refuses an entry with no knowledge base", async () => {
    const provider = createKnowledgeSearchToolProvider({ search });
    const context = {
      runId: "r",
      workflowId: "w",
      blockId: "b",
      signal: new AbortController().signal,
      depth: 0,
      variables: {},
      toolSpan: () => undefined,
      startSpan: () => {
        throw new Error("unused");
      },
    };
    expect(() =>
      provider.createTools(toolEntries([{ type: "knowledge_search", params: { knowledgeBaseIds: [] } }]), context),
    ).toThrow(/params\.knowledgeBaseId/);
  });
});
