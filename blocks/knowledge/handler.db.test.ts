import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeSearchFunction } from "@/knowledge";
import { createKnowledgeService, type KnowledgeService } from "@/lib/knowledge/knowledge-service";
import { createTestDatabase } from "@/lib/db/test-database";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createKnowledgeHandler } from "./handler";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let knowledge: KnowledgeService;
let baseId: string;
/** The search the handler gets in a run: bound to the run's workspace. */
let search: KnowledgeSearchFunction;
let ws: string;

const text = (value: string) => new TextEncoder().encode(value);

beforeAll(async () => {
  database = await createTestDatabase();
  knowledge = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  ws = await database.createWorkspace();
  search = (request, options) => knowledge.search(ws, request, options);
  baseId = (await knowledge.createBase(ws, { name: "Handbook" })).id;
  await knowledge.uploadDocuments(ws, baseId, [
    {
      name: "refunds.md",
      bytes: text("# Refund policy\n\nCustomers may request a full refund within 30 days of purchase."),
    },
    { name: "vacation.md", bytes: text("# Vacation\n\nEmployees accrue 25 days of paid vacation per year.") },
  ]);
  await knowledge.drain();
});

afterAll(async () => {
  await knowledge?.stop();
  await database?.close();
});

describe("Knowledge block handler", () => {
  it("outputs results with content, score, document id and name, chunk index, totalResults and the query", async () => {
    const handler = withConfigParsing("knowledge", createKnowledgeHandler({ search }));
    const { output, usage } = await handler({
      config: { knowledgeBaseIds: [baseId], query: "refund within 30 days", topK: 1, mode: "hybrid" },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect(output).toEqual({
      results: [
        {
          content: expect.stringContaining("full refund within 30 days"),
          score: expect.any(Number),
          documentId: expect.any(String),
          documentName: "refunds.md",
          chunkIndex: 0,
        },
      ],
      totalResults: 1,
      query: "refund within 30 days",
    });
    expect(usage?.cost).toEqual({ input: 0, output: 0, total: 0 });
  });

  it("applies the definition's defaults and names a bad config", async () => {
    const handler = withConfigParsing("knowledge", createKnowledgeHandler({ search }));
    const { output } = await handler({
      config: { knowledgeBaseIds: [baseId], query: "vacation" },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });
    expect((output.results as unknown[]).length).toBe(2);
    await expect(
      handler({ config: { knowledgeBaseIds: [], query: "x" }, inputs: {}, context: createInMemoryHandlerContext() }),
    ).rejects.toThrow(/knowledgeBaseIds: choose at least one knowledge base/i);
  });

  it("finds no base of another workspace: the search bound to it answers not found", async () => {
    const other = await database.createWorkspace("Other");
    const handler = withConfigParsing(
      "knowledge",
      createKnowledgeHandler({ search: (request, options) => knowledge.search(other, request, options) }),
    );
    await expect(
      handler({
        config: { knowledgeBaseIds: [baseId], query: "refund" },
        inputs: {},
        context: createInMemoryHandlerContext(),
      }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
