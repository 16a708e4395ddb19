import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/lib/db/test-database";
import { createWorkspace } from "./__fixtures__/knowledge-test-kit";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let service: KnowledgeService;
let workspaceId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  // A budget no real document meets: what a user sees when a document runs out of it.
  service = createKnowledgeService({
    db: database.prisma,
    envFor: async () => () => undefined,
    ingestion: { timeBudgetMs: 1 },
  });
  workspaceId = await createWorkspace(database, "Budget");
});

afterAll(async () => {
  await service?.stop();
  await database?.close();
});

describe("ingestion time budget", () => {
  it("fails a document that outlasts its budget at once, naming the budget and its setting", async () => {
    const base = await service.createBase(workspaceId, { name: "Slow" });
    const sentence = "Every clause of the travel policy is repeated here without a blank line. ";
    const text = new TextEncoder().encode(sentence.repeat(Math.ceil((1024 * 1024) / sentence.length)));
    const [stored] = await service.uploadDocuments(workspaceId, base.id, [{ name: "long.txt", bytes: text }]);
    expect(stored).toMatchObject({ status: "pending" });
    await service.drain();
    const document = await service.getDocument(workspaceId, base.id, stored!.id);
    expect(document).toMatchObject({
      status: "failed",
      attempts: 1,
      chunkCount: 0,
      error:
        "Processing took longer than its time budget of 1 ms per document and was stopped (TRELLIS_INGEST_TIME_BUDGET_MS=1)",
    });
  });
});
