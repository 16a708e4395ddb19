import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDocumentQueue } from "./document-queue";
import { createKnowledgeService, type KnowledgeService } from "./knowledge-service";
import { insertDocument } from "./knowledge-store";
import { createTestDatabase } from "@/lib/db/test-database";
import { createWorkspace } from "./__fixtures__/knowledge-test-kit";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let first: KnowledgeService;
let workspaceId: string;
let baseId: string;

const text = (value: string) => new TextEncoder().encode(value);

/** Queues a document without waking any worker, as a server that stopped right after the upload. */
const queueDocument = (name: string, content: string) =>
  insertDocument(database.prisma, workspaceId, {
    knowledgeBaseId: baseId,
    name,
    kind: name.endsWith(".json") ? "json" : "md",
    bytes: text(content),
    metadata: {},
  });

beforeAll(async () => {
  database = await createTestDatabase();
  first = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
  workspaceId = await createWorkspace(database, "Restart");
  baseId = (await first.createBase(workspaceId, { name: "Restart" })).id;
});

afterAll(async () => {
  await first?.stop();
  await database?.close();
});

describe("processing across a restart", () => {
  it("picks up a document left processing with an expired lease, and finishes it", async () => {
    const document = await queueDocument("policy.md", "# Policy\n\nRefunds within 30 days.");
    // A server claims the document and dies before finishing: the claim's lease runs out.
    const crashed = createDocumentQueue(database.prisma);
    const claim = await crashed.claim(1);
    expect(claim).toEqual({ documentId: document!.id, attempts: 1 });
    expect((await first.getDocument(workspaceId, baseId, document!.id)).status).toBe("processing");
    await new Promise((resolve) => setTimeout(resolve, 20));

    // The restarted server's worker claims it again and completes it.
    const restarted = createKnowledgeService({ db: database.prisma, envFor: async () => () => undefined });
    await restarted.drain();
    const after = await restarted.getDocument(workspaceId, baseId, document!.id);
    expect(after).toMatchObject({ status: "ready", attempts: 2, chunkCount: 1, error: null });
    // The crashed worker's late report is ignored: the document stays ready.
    await crashed.fail(claim!, "late failure from the dead worker");
    expect((await restarted.getDocument(workspaceId, baseId, document!.id)).status).toBe("ready");
  });

  it("leaves a document alone while another worker's lease is still valid", async () => {
    const document = await queueDocument("busy.md", "busy");
    const other = createDocumentQueue(database.prisma);
    const claim = await other.claim(60_000);
    expect(claim?.documentId).toBe(document!.id);
    const second = createDocumentQueue(database.prisma);
    expect(await second.claim(60_000)).toBeNull();
    await other.fail(claim!, "cleanup");
  });

  it("marks a document failed, with the reason, when processing keeps dying", async () => {
    const document = await queueDocument("poison.md", "poison");
    const queue = createDocumentQueue(database.prisma);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await queue.claim(1))?.attempts).toBe(attempt);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const restarted = createKnowledgeService({
      db: database.prisma,
      envFor: async () => () => undefined,
      worker: { maxAttempts: 3 },
    });
    await restarted.drain();
    const after = await restarted.getDocument(workspaceId, baseId, document!.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(/processing stopped 3 times without finishing/);
  });

  it("on start, detects that pgvector is absent and resumes waiting documents by itself", async () => {
    const document = await queueDocument("waiting.md", "# Waiting\n\nLeft pending by a stopped server.");
    const restarted = createKnowledgeService({
      db: database.prisma,
      envFor: async () => () => undefined,
      worker: { pollMs: 50 },
    });
    const capability = await restarted.start();
    expect(capability.pgvector).toBe(false);
    expect(capability.reason).toMatch(/pgvector/);
    await expect
      .poll(async () => (await restarted.getDocument(workspaceId, baseId, document.id)).status, { timeout: 10_000 })
      .toBe("ready");
    await restarted.stop();
  });

  it("on the embedded database, queues a document left processing by a crash again at start instead of waiting out its lease", async () => {
    const document = await queueDocument("crashed.md", "# Crashed\n\nThe server died while chunking this.");
    const crashed = createDocumentQueue(database.prisma);
    expect((await crashed.claim(5 * 60_000))?.documentId).toBe(document.id);
    const logged: string[] = [];
    const restarted = createKnowledgeService({
      db: database.prisma,
      envFor: async () => () => undefined,
      worker: { pollMs: 50 },
      releaseLeasesAtStart: true,
      log: (message) => logged.push(message),
    });
    await restarted.start();
    // Well within the 5-minute lease the crashed process took.
    await expect
      .poll(async () => (await restarted.getDocument(workspaceId, baseId, document.id)).status, { timeout: 10_000 })
      .toBe("ready");
    expect((await restarted.getDocument(workspaceId, baseId, document.id)).attempts).toBe(2);
    expect(logged.join("\n")).toMatch(
      /knowledge: \d+ document\(s\) left processing by a stopped server are queued again/,
    );
    await restarted.stop();
  });

  it("fails an unreadable file with its reason instead of retrying forever", async () => {
    const [document] = await first.uploadDocuments(workspaceId, baseId, [
      { name: "broken.json", bytes: text("{ not json") },
    ]);
    await first.drain();
    const after = await first.getDocument(workspaceId, baseId, document!.id);
    expect(after.status).toBe("failed");
    expect(after.error).toMatch(/JSON is not valid/);
  });
});
